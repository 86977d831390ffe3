"""Jobs claimed the way workers claim them, for requests the tests send as their effects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import httpx
from genji_api.queue.enqueue import enqueue_job
from genji_devstack.payload_samples import SAMPLES
from genji_sdk import ClaimToken
from litestar.testing import AsyncTestClient

from .queue_helpers import claim_next, register_worker
from .seed_guides import ClaimedJob

SENDS = "/api/v3/internal/effects/sends"


async def claimed(conn: asyncpg.Connection, event: str) -> ClaimedJob:
    """A fresh job of `event` (its sample payload), claimed by a new worker."""
    async with conn.transaction():
        job = await enqueue_job(
            conn,
            event_name=event,
            payload=SAMPLES[event],
            event_key=f"effects:test:{uuid4()}",
            entity_key=f"effects:test:{uuid4()}",
        )
    return await _claim(conn, event, job.id)


async def take_over(conn: asyncpg.Connection, job: ClaimedJob, event: str) -> ClaimedJob:
    """Another worker reclaims the job after its claim's heartbeat went stale: `job`'s claim is
    stale from now on, the returned one is active."""
    await conn.execute(
        "UPDATE pgqueuer SET heartbeat = now() - interval '10 minutes' WHERE id = $1",
        job.claim.queue_job_id,
    )
    return await _claim(conn, event, job.job_id)


async def _claim(conn: asyncpg.Connection, event: str, job_id: UUID) -> ClaimedJob:
    manager = await register_worker(conn, uuid4())
    row = await claim_next(conn, manager, event)
    assert row is not None and row.queue_manager_id is not None
    return ClaimedJob(job_id, ClaimToken(row.id, row.queue_manager_id, row.updated))


async def binding_rows(conn: asyncpg.Connection, job: ClaimedJob) -> list[asyncpg.Record]:
    return list(
        await conn.fetch(
            "SELECT effect_key, destination, state, channel_id, message_id, thread_id, "
            "detail::text AS detail FROM effect_bindings WHERE job_id = $1 "
            "ORDER BY effect_key, destination",
            job.job_id,
        )
    )


async def receipts(conn: asyncpg.Connection, job: ClaimedJob) -> int:
    count: int = await conn.fetchval(
        "SELECT count(*) FROM effect_receipts WHERE job_id = $1", job.job_id
    )
    return count


@dataclass(frozen=True)
class Sends:
    """The send binding endpoints, called as one effect of one job."""

    api: AsyncTestClient  # type: ignore[type-arg]
    job: ClaimedJob
    effect: str

    async def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return await self.api.post(SENDS + path, json=body, headers=self.job.headers(self.effect))

    async def begin(self, destination: str, fingerprint: str = "f") -> httpx.Response:
        return await self.post("", {"destination": destination, "fingerprint": fingerprint})

    async def complete(self, destination: str, **ids: Any) -> httpx.Response:
        return await self.post("/complete", {"destination": destination, **ids})

    async def settle(self, destination: str, state: str, reason: str = "") -> httpx.Response:
        return await self.post(
            "/settle", {"destination": destination, "state": state, "reason": reason}
        )

    async def release(self, destination: str) -> httpx.Response:
        return await self.post("/release", {"destination": destination})
