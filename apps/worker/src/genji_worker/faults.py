"""Process-death fault points for lifecycle tests; inert unless GENJI_FAULT_POINT names one.

A fault point SIGKILLs its own worker process when GENJI_FAULT_POINT equals its name, so a test
can kill a worker at an instant no outside signal can hit reliably. Points:

- ``before-complete``: the handler returned successfully and PGQueuer handed the result to
  the adapter, which has not yet written the completion (queue_complete_many).
- ``after-complete``: the completion was committed (asynchronously, so its WAL may not be
  written yet) and nothing else has been sent on the worker's connection.

Production never sets the variable; the check is one environment lookup.
"""

from __future__ import annotations

import os
import signal

ENVIRONMENT = "GENJI_FAULT_POINT"


def fault_point(name: str) -> None:
    if os.environ.get(ENVIRONMENT) == name:
        os.kill(os.getpid(), signal.SIGKILL)
