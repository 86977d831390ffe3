"""Every service of a recovery as its own process: the API (`python -m genji_api`, HTTP and
the API worker) and the recorded bot (`python -m genji_devstack.recorded_bot`), on a fresh test
database, with the recorder's files outside both. Tests kill and restart either, produce work
through the API's real routes, and recover held jobs as the configured operator through
POST /internal/jobs/{id}/retry."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID, uuid4

import asyncpg
import httpx
import msgspec
from genji_devstack.api_child import ApiChild
from genji_sdk.recovery import OperatorContext, RecoveryResult, RetryRequest

from tests.bot.bot_stack import FAST, BotProcess, BotStack, eventually

OPERATOR = 1_098_765_432_109_876_543
"""The one Discord user QUEUE_OPERATOR_IDS names for the API."""
BUDGET = len(FAST["GENJI_QUEUE_RETRY_DELAYS"].split(",")) + 1
"""Handler failures a generation has when it is held: every scheduled retry, then one more."""


def retry_request(generation: int, key: str | None = None) -> RetryRequest:
    return RetryRequest(
        expected_generation=generation,
        idempotency_key=key or f"cli-{uuid4()}",
        actor_id=OPERATOR,
        context=OperatorContext(source="cli"),
    )


@dataclass
class RecoveryStack:
    bots: BotStack
    """The bot's view of the stack: its key, the worker login, the recorder, and a superuser
    client of the API for producing work."""
    api: ApiChild
    operator: httpx.AsyncClient
    """A key with jobs:read and jobs:manage only, as the operator's tools hold."""
    tmp: Path
    bot: BotProcess | None = None

    @property
    def owner(self) -> asyncpg.Connection:
        return self.bots.owner

    @property
    def http(self) -> httpx.AsyncClient:
        return self.bots.http

    # -- processes -------------------------------------------------------------------------
    async def start_api(self) -> None:
        self.api.start()
        await self.api.until_ready()

    async def start_all(self) -> None:
        """Start the API and the bot side by side, and wait until both serve."""
        self.api.start()
        bot = self.start_bot()
        await self.api.until_ready()
        assert self.api.process is not None
        await self.until_worker("api", self.api.process.pid)
        await self.until_worker("bot", bot.pid)

    async def restart_all(self) -> None:
        """SIGKILL both services, then start them again."""
        self.kill_bot()
        self.api.kill()
        await self.start_all()

    def start_bot(self) -> BotProcess:
        assert self.bot is None or self.bot.process.poll() is not None, "a bot still runs"
        self.bot = BotProcess.start(self.bots, self.tmp / "bot.log")
        return self.bot

    def kill_bot(self) -> None:
        if self.bot is not None:
            self.bot.kill()

    async def until_worker(self, owner: str, pid: int, deadline: float = 30) -> None:
        """Until the worker process `pid` has registered and is ready to claim."""

        async def probe() -> bool:
            found = await self.owner.fetchval(
                "SELECT count(*) FROM queue_workers WHERE owner = $1 AND pid = $2", owner, pid
            )
            return bool(found)

        await eventually(probe, deadline, f"{owner} worker {pid} to register")

    def stop_all(self) -> None:
        self.kill_bot()
        self.api.kill()

    # -- the operator ------------------------------------------------------------------------
    async def retry(self, job_id: UUID | str, request: RetryRequest) -> RecoveryResult:
        response = await self.operator.post(
            f"/internal/jobs/{job_id}/retry", content=msgspec.json.encode(request)
        )
        assert response.status_code == 200, response.text
        return msgspec.json.decode(response.content, type=RecoveryResult)

    async def retry_unanswered(
        self, job_id: UUID | str, request: RetryRequest
    ) -> tuple[asyncio.StreamWriter, asyncpg.Record]:
        """Send the retry request and never read its answer: returns the open connection (for
        the caller to drop) once the request's audit row has committed."""
        parts = urlsplit(self.api.url)
        assert parts.hostname is not None and parts.port is not None
        body = msgspec.json.encode(request)
        head = (
            f"POST /api/v3/internal/jobs/{job_id}/retry HTTP/1.1\r\n"
            f"Host: {parts.hostname}:{parts.port}\r\n"
            f"X-API-KEY: {self.operator.headers['X-API-KEY']}\r\n"
            "Content-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        _, writer = await asyncio.open_connection(parts.hostname, parts.port)
        writer.write(head.encode() + body)
        await writer.drain()

        async def committed() -> asyncpg.Record | None:
            return await self.owner.fetchrow(
                "SELECT id, idempotency_key, outcome FROM job_actions WHERE idempotency_key = $1",
                request.idempotency_key,
            )

        action = await eventually(committed, 20, "the unanswered retry to commit")
        return writer, action

    async def public_status(self, job_id: UUID | str) -> dict[str, Any]:
        """GET /internal/jobs/{id} as the operator reads it."""
        response = await self.operator.get(f"/internal/jobs/{job_id}")
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    # -- durable state -----------------------------------------------------------------------
    async def job(self, job_id: UUID | str) -> asyncpg.Record:
        """The job's identity and failure state, with its queue row (gone once succeeded)."""
        row = await self.owner.fetchrow(
            """SELECT j.id, j.action, j.event_key, j.entity_key, j.queue_job_id,
                      j.retry_generation, j.handler_failures, j.error_code, j.error_msg,
                      j.held_at, q.status::text AS queue_status, q.attempts
               FROM jobs j LEFT JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = $1""",
            UUID(str(job_id)),
        )
        assert row is not None, f"no job {job_id}"
        return row

    async def until_held(self, job_id: UUID | str, generation: int, deadline: float = 30) -> None:
        """Until the job is held in `generation` with its whole failure budget spent."""

        async def probe() -> bool:
            row = await self.job(job_id)
            return (
                row["queue_status"] == "failed"
                and row["retry_generation"] == generation
                and row["held_at"] is not None
            )

        await eventually(probe, deadline, f"job {job_id} to be held in generation {generation}")

    async def logical_jobs(self, event: str) -> list[tuple[UUID, str]]:
        """(id, event key) of every job of `event`: retries must not add any."""
        rows = await self.owner.fetch(
            "SELECT id, event_key FROM jobs WHERE action = $1 ORDER BY created_at, id", event
        )
        return [(r["id"], r["event_key"]) for r in rows]

    async def actions(self, job_id: UUID | str) -> list[asyncpg.Record]:
        return list(
            await self.owner.fetch(
                "SELECT id, action, idempotency_key, actor_id, expected_generation, outcome "
                "FROM job_actions WHERE job_id = $1 ORDER BY id",
                UUID(str(job_id)),
            )
        )

    async def receipts(self, job_id: UUID | str) -> dict[str, bool]:
        """Effect receipts of the job: effect key -> completed."""
        rows = await self.owner.fetch(
            "SELECT effect_key, completed_at IS NOT NULL AS completed FROM effect_receipts "
            "WHERE job_id = $1",
            UUID(str(job_id)),
        )
        return {r["effect_key"]: r["completed"] for r in rows}
