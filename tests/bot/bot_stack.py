"""The bot's real consumers against the real API and the test database, Discord recorded.

`BotStack` serves the API (HTTP and its worker) on a loopback port, issues the bot its own
non-superuser key, and runs the bot's queue worker in this process, logged in as the worker
role, with the recorder as its Discord port and checkpoints. Tests produce work through the
API's real routes (`stack.http`, a superuser client) and watch durable state: the database
(`stack.owner`), the recorder (`stack.recorder`), and job status.

In-process workers must never be told to crash (the recorder would SIGKILL the test); fault
tests that kill the bot use `BotProcess` (genji_devstack.recorded_bot as a child process).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import asyncpg
import httpx
from genji_api.auth import scopes
from genji_bot.api import ApiClient
from genji_bot.consumers import CONSUMERS, BotServices, Consumer, JobRun, bot_handlers
from genji_bot.features import load_features
from genji_bot.settings import BotSettings
from genji_bot.views.registry import ViewRegistry
from genji_devstack.discord_standin.seed import DEFAULT_TOKEN as STANDIN_TOKEN
from genji_devstack.recorder_port import RecorderPort
from genji_sdk import REGISTRY
from genji_worker.settings import settings_from_env
from genji_worker.supervisor import QueueSupervisor

from tests.support.harness import eventually
from tests.support.secrets_seen import issue_token

__all__ = ("BotProcess", "BotStack", "eventually", "issue_bot_key", "registered_consumers")


BOT_USER_ID = 10**18
# Where `python -m tests...` finds the tests package, for a test's own variant of the bot.
REPOSITORY = Path(__file__).resolve().parents[2]
# The bot's key: every scope a handler uses, and not a superuser.
BOT_SCOPES = scopes.BOT
FAST = {
    "GENJI_QUEUE_POLLING_FALLBACK": "0.3",
    "GENJI_QUEUE_DRAIN_TIMEOUT": "1",
    "GENJI_QUEUE_RECONNECT_INITIAL": "0.1",
    "GENJI_QUEUE_RECONNECT_MAX": "0.5",
    "GENJI_QUEUE_RETRY_DELAYS": "0.1,0.1,0.1",
    "GENJI_QUEUE_DEPENDENCY_WAIT": "0.2",
}


def registered_consumers() -> dict[str, Consumer]:
    """The feature modules' consumers; an entrypoint without one fails its jobs loudly."""
    load_features()

    async def missing(payload: Any, job: JobRun) -> None:
        raise RuntimeError(f"no consumer is registered for {job.context.event_name}")

    return {spec.name: CONSUMERS.get(spec.name, missing) for spec in REGISTRY.owned_by("bot")}


async def issue_bot_key(owner: asyncpg.Connection) -> str:
    return await issue_token(owner, "genji-bot", superuser=False, scopes=BOT_SCOPES)


@dataclass
class BotStack:
    url: str
    """The served API's base URL."""
    http: httpx.AsyncClient
    """A superuser client of the API under /api/v3, for producing work through real routes."""
    owner: asyncpg.Connection
    recorder: RecorderPort
    bot_key: str
    worker_dsn: str
    settings: BotSettings

    def services(self, views: ViewRegistry | None = None) -> BotServices:
        api = ApiClient(self.url, self.bot_key, timeout=10)
        return BotServices(
            api=api,
            port=self.recorder,
            settings=self.settings,
            checkpoints=self.recorder,
            views=views or ViewRegistry(),
        )

    @contextlib.asynccontextmanager
    async def worker(
        self,
        consumers: Mapping[str, Consumer] | None = None,
        views: ViewRegistry | None = None,
        **overrides: str,
    ) -> AsyncIterator[QueueSupervisor]:
        """The bot's queue worker, consuming until the block ends; `consumers` stand in for
        the feature modules' consumers of their events, `views` is the process's view
        registry."""
        services = self.services(views)

        async def connect() -> asyncpg.Connection:
            return await asyncpg.connect(self.worker_dsn)

        supervisor = QueueSupervisor(
            owner="bot",
            handlers=bot_handlers(
                services, consumers={**registered_consumers(), **(consumers or {})}
            ),
            connect=connect,
            settings=settings_from_env({**FAST, **overrides}),
        )
        task = asyncio.create_task(supervisor.run())
        try:
            yield supervisor
        finally:
            supervisor.request_stop()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 30)
            await services.api.aclose()

    async def status(self, job_id: UUID | str) -> str:
        response = await self.http.get(f"/internal/jobs/{job_id}")
        response.raise_for_status()
        state: str = response.json()["status"]
        return state

    async def until_status(self, job_id: UUID | str, *states: str, deadline: float = 30) -> str:
        async def probe() -> str | None:
            current = await self.status(job_id)
            return current if current in states else None

        return await eventually(probe, deadline, f"job {job_id} to be {'/'.join(states)}")

    async def jobs(self, event: str) -> list[asyncpg.Record]:
        """Every job of `event`, oldest first: id, event_key, status."""
        return list(
            await self.owner.fetch(
                "SELECT id, event_key, status FROM jobs WHERE action = $1 ORDER BY created_at, id",
                event,
            )
        )

    async def until_quiet(self, deadline: float = 60) -> None:
        """Until no job is queued, retrying or running (held jobs count as settled)."""

        async def probe() -> bool:
            busy = await self.owner.fetchval(
                "SELECT count(*) FROM pgqueuer WHERE status IN ('queued', 'picked')"
            )
            return busy == 0

        await eventually(probe, deadline, "the queue to drain")


@dataclass
class BotProcess:
    """`python -m genji_devstack.recorded_bot` as a child a test may SIGKILL."""

    process: subprocess.Popen[bytes]
    log_path: Path

    @classmethod
    def start(
        cls,
        stack: BotStack,
        log_path: Path,
        environment: Mapping[str, str] | None = None,
        module: str | None = None,
        discord_url: str | None = None,
    ) -> BotProcess:
        """The recorded bot, or `module` (a test's variant of it, run with `-m`), or with
        `discord_url` the real bot, `python -m genji_bot`, talking to that stand-in of Discord."""
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("GENJI_", "DISCORD_"))},
            **FAST,
            **(environment or {}),
            "GENJI_API_URL": stack.url,
            "GENJI_API_KEY": stack.bot_key,
            "QUEUE_DATABASE_URL": stack.worker_dsn,
            "GENJI_RECORDER_DIR": str(stack.recorder.directory),
        }
        if module:
            command = [sys.executable, "-m", module]
            env["PYTHONPATH"] = str(REPOSITORY)
        elif discord_url:
            command = [sys.executable, "-m", "genji_bot"]
            # A test's environment may give another token (one Discord refuses).
            env.setdefault("DISCORD_URL", discord_url)
            env.setdefault("DISCORD_TOKEN", STANDIN_TOKEN)
        else:
            command = [sys.executable, "-m", "genji_devstack.recorded_bot"]
        with log_path.open("ab") as out:
            process = subprocess.Popen(
                command,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return cls(process=process, log_path=log_path)

    @property
    def pid(self) -> int:
        return self.process.pid

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")
