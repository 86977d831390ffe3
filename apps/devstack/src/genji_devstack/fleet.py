"""Worker processes with the production runtime and recorder handlers
(`python -m genji_devstack.recorder_worker bot|api`), each with its own log file.

Lifecycle tests and benchmarks start, watch, kill and stop their workers through this module.
A worker's environment carries only what the caller gives it: queue settings, database URLs
and recorder paths inherited from the caller's shell are dropped, so a developer's local
configuration never leaks into a measurement or a test.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

# Inherited variables that would change what a worker connects to or how it behaves.
PRIVATE_PREFIXES = ("GENJI_", "QUEUE_DATABASE_")
PRIVATE_NAMES = frozenset({"DATABASE_URL"})
REGISTRATION_POLL = 0.02


class WorkerExited(RuntimeError):
    """A worker process ended while it was expected to run."""


def worker_environment(
    settings: Mapping[str, str], inherited: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """`inherited` without the worker's own configuration, plus `settings`."""
    kept = {
        name: value
        for name, value in inherited.items()
        if not name.startswith(PRIVATE_PREFIXES) and name not in PRIVATE_NAMES
    }
    return {**kept, **settings, "PYTHONUNBUFFERED": "1"}


@dataclass
class WorkerProcess:
    owner: str
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def signal(self, signum: int) -> None:
        """Send `signum` unless the process has already exited."""
        if self.alive():
            os.kill(self.pid, signum)

    def wait(self, timeout: float = 20.0) -> int:
        return self.process.wait(timeout)

    def kill(self) -> int:
        self.signal(signal.SIGKILL)
        return self.wait(10)

    def stop(self, grace: float = 10.0) -> int:
        """SIGTERM, then SIGKILL if the graceful stop takes longer than `grace` seconds."""
        self.signal(signal.SIGTERM)
        try:
            return self.wait(grace)
        except subprocess.TimeoutExpired:
            return self.kill()

    def log(self) -> str:
        try:
            return self.log_path.read_text()
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 15) -> str:
        return "\n".join(self.log().splitlines()[-lines:])


@dataclass
class WorkerFleet:
    """Worker processes sharing one log directory and one effect recorder directory.

    `observer_dsn` is a login that may read queue_workers (the owner's), used to see a
    worker register.
    """

    logdir: Path
    recorder_dir: Path
    observer_dsn: str
    workers: list[WorkerProcess] = field(default_factory=list)

    def start(
        self, owner: str, queue_dsn: str, settings: Mapping[str, str] | None = None
    ) -> WorkerProcess:
        """Launch one worker connecting to `queue_dsn`; returns without waiting for it."""
        environment = worker_environment(
            {
                **(settings or {}),
                "QUEUE_DATABASE_URL": queue_dsn,
                "GENJI_RECORDER_DIR": str(self.recorder_dir),
            }
        )
        self.logdir.mkdir(parents=True, exist_ok=True)
        log_path = self.logdir / f"worker-{len(self.workers)}.log"
        with log_path.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "genji_devstack.recorder_worker", owner],
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = WorkerProcess(owner, process, log_path)
        self.workers.append(worker)
        return worker

    async def until_registered(self, worker: WorkerProcess, deadline: float = 30.0) -> None:
        """Wait until `worker` has its liveness row in queue_workers (it claims work next)."""
        end = time.monotonic() + deadline
        async with await psycopg.AsyncConnection.connect(
            self.observer_dsn, autocommit=True
        ) as conn:
            while True:
                if not worker.alive():
                    raise WorkerExited(
                        f"worker {worker.pid} exited with {worker.process.returncode}:\n"
                        f"{worker.log_tail()}"
                    )
                cursor = await conn.execute(
                    "SELECT EXISTS (SELECT 1 FROM queue_workers WHERE pid = %s)", (worker.pid,)
                )
                row = await cursor.fetchone()
                if row is not None and row[0]:
                    return
                if time.monotonic() > end:
                    raise TimeoutError(f"worker {worker.pid} did not register in {deadline:.0f}s")
                await asyncio.sleep(REGISTRATION_POLL)

    async def spawn(
        self, owner: str, queue_dsn: str, settings: Mapping[str, str] | None = None
    ) -> WorkerProcess:
        """Launch one worker and wait until it has registered."""
        worker = self.start(owner, queue_dsn, settings)
        await self.until_registered(worker)
        return worker

    def running(self) -> list[WorkerProcess]:
        return [worker for worker in self.workers if worker.alive()]

    def kill_all(self) -> None:
        for worker in self.running():
            worker.kill()

    def stop_all(self, grace: float = 10.0) -> None:
        for worker in self.running():
            worker.signal(signal.SIGTERM)
        for worker in self.workers:
            worker.stop(grace)

    def log_tails(self, lines: int = 15) -> str:
        return "\n".join(
            f"--- worker {worker.pid} ({worker.owner}) log tail ---\n{worker.log_tail(lines)}"
            for worker in self.workers
        )
