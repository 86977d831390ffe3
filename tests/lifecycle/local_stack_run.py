"""`just up`'s stack as the operator runs it: a process whose output names its pids, its run
directory and the block to paste."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.support.harness import eventually

REPOSITORY = Path(__file__).resolve().parents[2]
READY = "--- the stack is up: paste these lines into a shell at the repository root ---"
CHILDREN = ("fake OCR", "Discord stand-in", "API and API worker", "bot worker")
SINGLE = {
    "stack": re.compile(r"^stack pid (\d+):", re.MULTILINE),
    "watchdog": re.compile(r"^watchdog pid (\d+)$", re.MULTILINE),
    "postmaster": re.compile(r"^postgres postmaster pid (\d+), data in (\S+)/pg$", re.MULTILINE),
}


def stack_env(**overrides: str) -> dict[str, str]:
    drop = ("DATABASE_URL", "QUEUE_DATABASE_URL", "DISCORD_TOKEN", "DISCORD_URL")
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("GENJI_")}
    return {**env, "PYTHONUNBUFFERED": "1", **overrides}


@dataclass
class StackRun:
    process: subprocess.Popen[bytes]
    output: Path

    def text(self) -> str:
        return self.output.read_text(errors="replace").replace("\r", "")  # a terminal's CRLF

    def pid(self, name: str) -> int:
        """The stack's, the watchdog's, the postmaster's or a child's latest pid."""
        if name in SINGLE:
            match = SINGLE[name].search(self.text())
            assert match, f"no {name} pid in:\n{self.text()}"
            return int(match.group(1))
        started = self.started(name)
        assert started, f"{name} never started:\n{self.text()}"
        return started[-1]

    def started(self, name: str) -> list[int]:
        pattern = re.compile(rf"^{re.escape(name)} started \(pid (\d+)\)$", re.MULTILINE)
        return [int(pid) for pid in pattern.findall(self.text())]

    def pids(self) -> dict[str, int]:
        found = {name: self.pid(name) for name in ("stack", "watchdog", "postmaster")}
        return found | {name: self.pid(name) for name in CHILDREN if self.started(name)}

    def run_dir(self) -> Path:
        match = SINGLE["postmaster"].search(self.text())
        assert match, self.text()
        return Path(match.group(2))

    def block(self) -> list[str]:
        lines = self.text().splitlines()
        start = lines.index(READY)
        return lines[start + 1 : lines.index("---", start)]

    async def ready(self, deadline: float = 180) -> None:
        async def printed() -> bool:
            assert self.process.poll() is None, self.text()
            return READY in self.text()

        await eventually(printed, deadline, "the stack to print its block")

    async def exited(self, deadline: float) -> int:
        async def code() -> bool:
            return self.process.poll() is not None  # 0 included

        try:
            await eventually(code, deadline, "the stack to exit")
        except AssertionError as error:
            raise AssertionError(f"{error}; its output:\n{self.text()}") from None
        assert self.process.returncode is not None
        return self.process.returncode

    def stop(self) -> None:
        """After a failed test: SIGKILL the stack (its watchdog stops the rest)."""
        match = SINGLE["stack"].search(self.text())
        if match and alive(int(match.group(1))):
            os.kill(int(match.group(1)), signal.SIGKILL)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)


def start_stack(tmp: Path, name: str, env: dict[str, str] | None = None) -> StackRun:
    output = tmp / f"{name}.out"
    with output.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "genji_devstack.local_stack"],
            env=env or stack_env(),
            cwd=REPOSITORY,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return StackRun(process, output)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (ProcessLookupError, FileNotFoundError):
        return False
    return state not in ("Z", "X")


async def all_gone(pids: dict[str, int], deadline: float, what: str) -> None:
    async def gone() -> bool:
        return not any(alive(pid) for pid in pids.values())

    try:
        await eventually(gone, deadline, what)
    except AssertionError:
        survivors = {name: pid for name, pid in pids.items() if alive(pid)}
        raise AssertionError(f"{what}: still running {survivors}") from None


def elapsed_since(start: float) -> float:
    return time.monotonic() - start
