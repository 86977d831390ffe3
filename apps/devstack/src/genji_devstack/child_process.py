"""One child process of a development stack (the local stack, the soak, the API of a test or a
benchmark): started in a session of its own so that it dies with its parent, its output kept
for the message that says why it ended, stopped gracefully and then killed.

Output goes either to a log file (stdout and stderr appended, `log_path`) or, without one,
stderr is passed through to ours while its last lines are kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

PR_SET_PDEATHSIG = 1
TAIL_LINES = 20


def _die_with_parent(parent: int) -> Callable[[], None]:
    def set_up() -> None:
        # Runs in the child between fork and exec: SIGKILL when the parent's thread that
        # started it ends, so a SIGKILLed parent leaves no child behind.
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the line above
            os._exit(1)

    return set_up


@dataclass
class ChildProcess:
    name: str
    command: list[str]
    env: dict[str, str]
    log_path: Path | None = None
    """Where stdout and stderr are appended; None passes stderr through to ours."""
    tail: deque[str] = field(default_factory=lambda: deque(maxlen=TAIL_LINES))
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    reader: threading.Thread | None = None

    def spawn(self) -> int:
        assert not self.alive(), f"{self.name} still runs"
        self.tail.clear()
        out = None if self.log_path is None else self.log_path.open("ab")
        try:
            self.process = subprocess.Popen(
                self.command,
                env=self.env,
                stdout=out,  # without a log file: ours
                stderr=subprocess.PIPE if out is None else subprocess.STDOUT,
                start_new_session=True,  # signals reach it (and what it starts) through us
                preexec_fn=_die_with_parent(os.getpid()),
            )
        finally:
            if out is not None:
                out.close()
        if out is None:
            self.reader = threading.Thread(
                target=self._pass_stderr, args=(self.process,), daemon=True
            )
            self.reader.start()
        self.started_at = time.monotonic()
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

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log(self, chars: int = 4000) -> str:
        """The end of the log file (or of the kept stderr lines)."""
        if self.log_path is None:
            return "\n".join(self.tail)
        return self.log_path.read_text(errors="replace")[-chars:]

    def last_lines(self) -> str:
        """The child's last output lines, once its pipe has drained (bounded wait)."""
        if self.reader is not None:
            self.reader.join(2)
        if self.log_path is not None and self.log_path.exists():
            self.tail.extend(self.log().splitlines()[-TAIL_LINES:])
        lines = list(self.tail) or ["(nothing on stderr)"]
        return "\n".join(f"  | {line}" for line in lines)

    def signal(self, signum: int) -> None:
        """`signum` to the child's process group (the child and whatever it started)."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, signum)

    def kill(self) -> None:
        """SIGKILL: no drain, nothing said to the database."""
        self.signal(signal.SIGCONT)  # a stopped process takes SIGKILL too, but its waiters not
        self.signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(10)

    def stop(self, timeout: float = 30.0) -> None:
        """SIGTERM (graceful drain), SIGKILL if it is still there after `timeout`."""
        if not self.alive():
            return
        assert self.process is not None
        self.signal(signal.SIGCONT)
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    async def until_ready(
        self, probe: Callable[[], Awaitable[bool]], deadline: float, what: str = "ready"
    ) -> None:
        """Until `probe` says yes; raises with the child's last lines when it exits first or
        `deadline` seconds pass."""
        end = time.monotonic() + deadline
        while not await probe():
            code = self.exit_code()
            if code is not None:
                raise RuntimeError(f"{self.name} exited with {code}:\n{self.last_lines()}")
            if time.monotonic() > end:
                raise TimeoutError(
                    f"{self.name} was not {what} in {deadline:.0f}s:\n{self.last_lines()}"
                )
            await asyncio.sleep(0.05)
