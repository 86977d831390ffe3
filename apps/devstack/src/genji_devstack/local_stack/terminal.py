"""The terminal's Ctrl-C for the stack alone.

`just` does not forward a SIGINT sent to it alone, and after a SIGINT it prints `error:
interrupted by SIGINT` and exits 130 even when its recipe stopped cleanly. When the stack runs in
the foreground of a terminal, it moves into a process group of its own and makes that group the
terminal's foreground: Ctrl-C then reaches the stack only, which stops its children in order and
exits 0, and `just` exits with it silently.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable


def _with_sigttou_ignored(action: Callable[[], None]) -> None:
    # A process outside the foreground group that changes it would be stopped by SIGTTOU.
    previous = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        action()
    finally:
        signal.signal(signal.SIGTTOU, previous)


def take_foreground() -> Callable[[], None]:
    """Become the terminal's foreground group if we are in it; returns what gives it back."""
    try:
        tty = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return lambda: None
    group = os.getpgrp()
    try:
        if os.tcgetpgrp(tty) != group or os.getsid(0) == os.getpid():
            os.close(tty)
            return lambda: None
        os.setpgid(0, 0)
        _with_sigttou_ignored(lambda: os.tcsetpgrp(tty, os.getpgrp()))
    except OSError:
        os.close(tty)
        return lambda: None

    def give_back() -> None:
        try:
            _with_sigttou_ignored(lambda: os.tcsetpgrp(tty, group))
        except OSError:
            pass
        finally:
            os.close(tty)

    return give_back
