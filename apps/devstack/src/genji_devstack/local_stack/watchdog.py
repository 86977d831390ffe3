"""`python -m genji_devstack.local_stack.watchdog RUN_DIR`: cleans up after a `just up` that was
killed without a chance to stop what it started (SIGKILL, a crash of the interpreter).

The stack starts it in a session of its own with a pipe as its stdin and writes `done` to the
pipe after a clean stop. End of file without `done` means the stack died: the watchdog stops the
children and the postmaster the run directory names and removes the directory. Signals aimed at
the stack's process group never reach it.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from genji_devstack.local_stack.rundir import reap


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    run = Path(sys.argv[1])
    for line in sys.stdin:
        if line.strip() == "done":
            return 0
    reap(run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
