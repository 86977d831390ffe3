"""The real-client tests reuse the producers and readers of the recorder-based suites."""

from __future__ import annotations

import sys
from pathlib import Path

BOT_TESTS = Path(__file__).parents[1]
sys.path[:0] = [str(BOT_TESTS / name) for name in ("completions", "notifications", "q26")]
