"""`just up` stops everything it started whichever way it is stopped: SIGINT or SIGTERM to the
stack, to its process group or to `just`, Ctrl-C in its terminal (silently, exit 0), a second
Ctrl-C during the drain (at once), and SIGKILL (its children, the postmaster and its run
directory go by themselves, or at the next start)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import shutil
import signal
import subprocess
import termios
import threading
from pathlib import Path

from tests.support.harness import eventually

from .local_stack_run import CHILDREN, REPOSITORY, StackRun, alive, all_gone, start_stack


async def test_a_second_sigint_during_the_drain_stops_everything_now(tmp_path: Path) -> None:
    run = start_stack(tmp_path, "hurry")
    try:
        await run.ready()
        pids = run.pids()
        # A stopped API cannot drain: without a second signal the stop would wait for it.
        os.kill(pids["API and API worker"], signal.SIGSTOP)
        os.kill(pids["stack"], signal.SIGINT)

        async def bot_drained() -> bool:
            return "graceful drain" in run.text() and not alive(pids["bot worker"])

        await eventually(bot_drained, 60, "the bot to drain")
        assert run.process.poll() is None, run.text()
        os.kill(pids["stack"], signal.SIGINT)
        assert await run.exited(15) == 0, run.text()
        assert "second stop signal: stopping now" in run.text()
        await all_gone(pids, 10, "everything to stop after the second SIGINT")
        assert not run.run_dir().exists()
    finally:
        run.stop()


async def test_what_a_sigkilled_stack_and_watchdog_left_goes_at_the_next_start(
    tmp_path: Path,
) -> None:
    first = start_stack(tmp_path, "killed")
    second: StackRun | None = None
    try:
        await first.ready()
        old = first.pids()
        os.kill(old["watchdog"], signal.SIGKILL)
        os.kill(old["stack"], signal.SIGKILL)
        # The children die with the stack (their parent-death signal)...
        await all_gone({n: old[n] for n in CHILDREN}, 10, "the children to die with the stack")
        # ...and the next start stops the orphaned postmaster and removes the run directory.
        second = start_stack(tmp_path, "next")
        await second.ready()
        await all_gone({"postmaster": old["postmaster"]}, 10, "the old postmaster to stop")
        assert not first.run_dir().exists()
        pids = second.pids()
        os.killpg(second.process.pid, signal.SIGTERM)
        assert await second.exited(90) == 0, second.text()
        await all_gone(pids, 10, "everything to stop after SIGTERM to the group")
        assert not second.run_dir().exists()
    finally:
        first.stop()
        if second is not None:
            second.stop()


class Terminal:
    """`just up` in a pseudo-terminal of its own, as an operator runs it."""

    def __init__(self, tmp: Path) -> None:
        self.output = tmp / "just-up.out"
        self.output.touch()
        master, slave = pty.openpty()
        just = shutil.which("just")
        assert just, "just is not installed"

        def controlling_terminal() -> None:
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen(
            [just, "up"],
            cwd=REPOSITORY,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=controlling_terminal,
            env={k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DISCORD_TOKEN")},
        )
        os.close(slave)
        self.master = master
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with self.output.open("ab") as out:
            while True:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                out.write(chunk)
                out.flush()

    def stack(self) -> StackRun:
        return StackRun(self.process, self.output)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)


async def test_ctrl_c_in_the_terminal_of_just_up_stops_everything_silently(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path)
    run = terminal.stack()
    try:
        await run.ready(240)
        pids = run.pids()
        terminal.type(b"\x03")
        assert await run.exited(90) == 0, run.text()
        text = run.text()
        assert "\nstopped\n" in text, text
        # just's own complaint ("error: interrupted by SIGINT") starts a line; log lines carry
        # logger names such as uvicorn.error.
        assert not re.search(r"^error", text.split("graceful drain", 1)[1], re.MULTILINE), text
        await all_gone(pids, 10, "everything to stop after Ctrl-C")
        assert not run.run_dir().exists()
    finally:
        run.stop()


async def test_sigterm_to_just_stops_everything(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path)
    run = terminal.stack()
    try:
        await run.ready(240)
        pids = run.pids()
        os.kill(terminal.process.pid, signal.SIGTERM)
        await run.exited(90)
        assert "\nstopped" in run.text(), run.text()
        await all_gone(pids, 10, "everything to stop after SIGTERM to just")
        assert not run.run_dir().exists()
    finally:
        run.stop()
