"""The recorded bot process with the probe consumer in place of its feature's (run as
`python -m tests.bot.sends.probe_bot`)."""

from __future__ import annotations

import sys

from genji_devstack import recorded_bot

from tests.bot.bot_stack import registered_consumers

from .probe import PROBE

if __name__ == "__main__":
    sys.exit(recorded_bot.main({**registered_consumers(), **PROBE}))
