"""Small helpers shared by queue tests: sample payloads and direct reads of queue state."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import asyncpg
import msgspec
from genji_api.queue.enqueue import enqueue_job
from genji_queue.claim import queue_claim
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads.xp import XpGrantEvent
from payload_samples import SAMPLES
from pgqueuer.models import Job

XP_EVENT = "api.xp.grant"


def xp_payload(user_id: int = 1, amount: int = 5, grant_id: int = 1) -> XpGrantEvent:
    return XpGrantEvent(
        grant_id=grant_id,
        user_id=user_id,
        amount=amount,
        type="Completion",
        previous_amount=0,
        new_amount=amount,
    )


def sample_json(event: str) -> str:
    """The valid sample payload of `event` as JSON text, for raw enqueue_job calls."""
    return msgspec.json.encode(SAMPLES[event]).decode()


async def enqueue_xp(conn: asyncpg.Connection, key: str, **payload: Any) -> JobStatusResponse:
    async with conn.transaction():
        return await enqueue_job(
            conn,
            event_name=XP_EVENT,
            payload=xp_payload(**payload),
            event_key=key,
            entity_key=f"user:{payload.get('user_id', 1)}",
        )


async def queue_row(conn: asyncpg.Connection, job_id: UUID) -> asyncpg.Record | None:
    return await conn.fetchrow(
        "SELECT q.* FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id WHERE j.id = $1", job_id
    )


async def claim_next(
    conn: asyncpg.Connection, manager: UUID, entrypoint: str = XP_EVENT
) -> Job | None:
    """Claim the next ready (or stale) job the way workers do."""
    rows = await queue_claim(conn, manager, [entrypoint], 1, 2)
    return Job.model_validate(rows[0]) if rows else None
