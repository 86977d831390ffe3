"""`python -m genji_api` (HTTP, and the API worker unless turned off) as a child process that a
test or the soak kills and restarts. It keeps its port across restarts, so clients started
before the API went down reach the restarted one."""

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

import httpx

from genji_devstack.ports import free_port


@dataclass
class ApiChild:
    dsn: str
    log_path: Path
    environment: Mapping[str, str]
    """Settings on top of this process's environment, whose GENJI_* variables are dropped."""
    worker: bool = True
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ApiChild:
        assert self.process is None or self.process.poll() is not None, "the API still runs"
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("GENJI_")},
            **self.environment,
            "DATABASE_URL": self.dsn,
            "API_PORT": str(self.port),
            "GENJI_API_WORKER": "1" if self.worker else "0",
        }
        with self.log_path.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "genji_api"],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    async def until_ready(self, deadline: float = 30.0) -> None:
        assert self.process is not None
        end = time.monotonic() + deadline
        async with httpx.AsyncClient() as client:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(
                        f"the API exited with {self.process.returncode}:\n{self.log()}"
                    )
                try:
                    if (await client.get(f"{self.url}/healthcheck")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                if time.monotonic() > end:
                    raise TimeoutError(f"the API was not ready in {deadline:.0f}s:\n{self.log()}")
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no lifespan shutdown, no drain, nothing said to the database."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]
