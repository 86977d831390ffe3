"""The operator CLI run as a real process against the test database, with the held-job helpers
of tests/recovery."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).parents[2] / "recovery"))
