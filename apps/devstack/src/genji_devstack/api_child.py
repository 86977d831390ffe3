"""`python -m genji_api` (HTTP, and the API worker unless turned off) as a child process that a
test or the soak kills and restarts (genji_devstack.child_process). It keeps its port across
restarts, so clients started before the API went down reach the restarted one."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from genji_devstack.child_process import ChildProcess
from genji_devstack.ports import free_port


@dataclass
class ApiChild:
    dsn: str
    log_path: Path
    environment: Mapping[str, str]
    """Settings on top of this process's environment, whose GENJI_* variables are dropped."""
    worker: bool = True
    port: int = field(default_factory=free_port)
    child: ChildProcess | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        return None if self.child is None else self.child.process

    def start(self) -> ApiChild:
        assert self.child is None or not self.child.alive(), "the API still runs"
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("GENJI_")},
            **self.environment,
            "DATABASE_URL": self.dsn,
            "API_PORT": str(self.port),
            "GENJI_API_WORKER": "1" if self.worker else "0",
        }
        self.child = ChildProcess(
            "the API", [sys.executable, "-m", "genji_api"], env, self.log_path
        )
        self.child.spawn()
        return self

    async def until_ready(self, deadline: float = 30.0) -> None:
        assert self.child is not None
        async with httpx.AsyncClient() as client:

            async def healthy() -> bool:
                try:
                    return (await client.get(f"{self.url}/healthcheck")).status_code == 200
                except httpx.TransportError:
                    return False

            await self.child.until_ready(healthy, deadline)

    def kill(self) -> None:
        """SIGKILL: no lifespan shutdown, no drain, nothing said to the database."""
        if self.child is not None:
            self.child.kill()

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop(30)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]
