"""SIGINT and SIGTERM for the stack: the first stops it gracefully (the workers drain), a second
one during the stop stops everything now."""

from __future__ import annotations

import signal
import time
from types import FrameType

# The same signal twice this close together is one request delivered twice (a process group
# and a forwarding parent, such as `uv run`, both deliver Ctrl-C).
DUPLICATE_WITHIN = 0.3


class StopSignals:
    def __init__(self) -> None:
        self.hurry = False
        self._first: tuple[int, float] | None = None

    def install(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self._handle)

    def begin_stop(self) -> None:
        """From now on any stop signal means: stop now."""
        if self._first is None:
            self._first = (0, time.monotonic())

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        now = time.monotonic()
        if self._first is None:
            self._first = (signum, now)
            raise KeyboardInterrupt
        first, at = self._first
        if signum == first and now - at < DUPLICATE_WITHIN:
            return
        if not self.hurry:
            self.hurry = True
            print(
                "second stop signal: stopping now (SIGKILL to the children, immediate stop of "
                "the cluster)",
                flush=True,
            )
