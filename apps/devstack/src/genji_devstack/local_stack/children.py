"""One child of the local stack: started so it dies with the stack, its stderr passed through to
ours while the last lines are kept for the message that says why it ended."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

PR_SET_PDEATHSIG = 1
TAIL_LINES = 20


def _die_with_parent(parent: int) -> Callable[[], None]:
    def set_up() -> None:
        # Runs in the child between fork and exec: SIGKILL when the stack's thread that started
        # it ends, so a SIGKILLed stack leaves no child behind.
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the stack died before the line above
            os._exit(1)

    return set_up


@dataclass
class Child:
    name: str
    command: list[str]
    env: dict[str, str]
    service: bool = False
    """One the others use (the fake OCR, the Discord stand-in): it stops after them."""
    restart_note: str | None = None
    """Printed whenever the child is restarted."""
    tail: deque[str] = field(default_factory=lambda: deque(maxlen=TAIL_LINES))
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    reader: threading.Thread | None = None

    def spawn(self) -> int:
        self.tail.clear()
        self.process = subprocess.Popen(
            self.command,
            env=self.env,
            stderr=subprocess.PIPE,
            start_new_session=True,  # Ctrl-C reaches them through the stack, in order
            preexec_fn=_die_with_parent(os.getpid()),
        )
        self.started_at = time.monotonic()
        self.reader = threading.Thread(target=self._pass_stderr, args=(self.process,), daemon=True)
        self.reader.start()
        return self.process.pid

    def _pass_stderr(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            sys.stderr.buffer.write(line)
            sys.stderr.buffer.flush()
            self.tail.append(line.decode(errors="replace").rstrip())

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def exit_code(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def last_lines(self) -> str:
        """The child's last stderr lines, once its pipe has drained (bounded wait)."""
        if self.reader is not None:
            self.reader.join(2)
        lines = list(self.tail) or ["(nothing on stderr)"]
        return "\n".join(f"  | {line}" for line in lines)

    def signal(self, signum: int) -> None:
        if self.exit_code() is None:
            try:
                os.kill(self.pid, signum)
            except ProcessLookupError:
                pass
