"""The recorded bot process with the probe consumer in place of its feature's (run as a file)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).parents[n]) for n in range(3)]

from bot_stack import registered_consumers  # noqa: E402
from genji_devstack import recorded_bot  # noqa: E402
from probe import PROBE  # noqa: E402

if __name__ == "__main__":
    sys.exit(recorded_bot.main({**registered_consumers(), **PROBE}))
