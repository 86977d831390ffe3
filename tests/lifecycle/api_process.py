"""The API process (`python -m genji_api`: HTTP and the API worker) as a child a test kills."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import httpx
from harness import FAST_SETTINGS


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class ApiProcess:
    process: subprocess.Popen[bytes]
    url: str
    log_path: Path

    @classmethod
    def start(
        cls, dsn: str, log_path: Path, *, worker: bool, environment: Mapping[str, str]
    ) -> ApiProcess:
        port = free_port()
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("GENJI_")},
            **FAST_SETTINGS,
            **environment,
            "DATABASE_URL": dsn,
            "API_PORT": str(port),
            "GENJI_API_WORKER": "1" if worker else "0",
        }
        with log_path.open("ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "genji_api"],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return cls(process=process, url=f"http://127.0.0.1:{port}", log_path=log_path)

    async def until_ready(self, deadline: float = 30.0) -> None:
        end = time.monotonic() + deadline
        async with httpx.AsyncClient() as client:
            while True:
                if self.process.poll() is not None:
                    raise RuntimeError(f"API exited with {self.process.returncode}:\n{self.log()}")
                try:
                    if (await client.get(f"{self.url}/healthcheck")).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                if time.monotonic() > end:
                    raise TimeoutError(f"API not ready in {deadline:.0f}s:\n{self.log()}")
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no lifespan shutdown, no drain, no goodbye to the database."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]
