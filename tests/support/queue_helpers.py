"""Small helpers shared by queue tests: sample payloads and direct reads of queue state."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import msgspec
from genji_api.queue.enqueue import enqueue_job
from genji_devstack.payload_samples import SAMPLES
from genji_queue.begin import queue_begin
from genji_queue.claim import queue_claim
from genji_queue.enqueue import enqueue_job_raw
from genji_queue.workers import queue_worker_beat
from genji_sdk import REGISTRY, JobContext
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads.xp import XpGrantEvent
from genji_worker.claims import claim_of
from genji_worker.executor import Handler
from pgqueuer.models import Job

XP_EVENT = "api.xp.grant"


async def does_nothing(payload: msgspec.Struct, context: JobContext) -> None:
    return None


def bot_handlers(xp: Handler) -> dict[str, Handler]:
    """Handlers for every event the bot owns: `xp` for XP grants, nothing for the others."""
    handlers: dict[str, Handler] = {spec.name: does_nothing for spec in REGISTRY.owned_by("bot")}
    handlers[XP_EVENT] = xp
    return handlers


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
    claimed = (
        await queue_claim(conn, manager, [entrypoint], 1, 2, timedelta(milliseconds=200))
    ).jobs
    return Job.model_validate(claimed[0].row) if claimed else None


UNGATED_CLAIM = """
WITH next AS (
    SELECT q.id FROM pgqueuer q
    WHERE q.entrypoint = $2
      AND ((q.status = 'queued' AND q.execute_after <= now())
           OR (q.status = 'picked' AND q.heartbeat < now() - interval '1 minute'))
    ORDER BY q.id LIMIT 1
), claimed AS (
    UPDATE pgqueuer q SET status = 'picked', updated = now(), heartbeat = now(), queue_manager_id = $1
    FROM next WHERE q.id = next.id
    RETURNING q.*
), logged AS (
    INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
    SELECT c.id, 'picked', c.entrypoint, c.priority FROM claimed c
)
SELECT * FROM claimed
"""


async def claim_ungated(
    conn: asyncpg.Connection, manager: UUID, entrypoint: str = XP_EVENT
) -> Job | None:
    """A claim as queue_claim writes it, before the start gate runs: lets gate tests call
    queue_begin on a claim themselves (queue_claim always gates what it claims)."""
    row = await conn.fetchrow(UNGATED_CLAIM, manager, entrypoint)
    return Job.model_validate(dict(row)) if row else None


GATE_WAIT = timedelta(milliseconds=200)


async def claimed_ungated(conn: asyncpg.Connection, entrypoint: str = XP_EVENT) -> Job:
    """claim_ungated for a new manager, which must find a job."""
    job = await claim_ungated(conn, uuid4(), entrypoint)
    assert job is not None
    return job


async def gate_decision(conn: asyncpg.Connection, job: Job, wait: timedelta = GATE_WAIT) -> str:
    """The start gate's decision on `job`'s claim."""
    return (await queue_begin(conn, claim_of(job), wait)).decision


async def register_worker(conn: asyncpg.Connection, manager: UUID) -> UUID:
    """Register `manager` as this session's, as a worker does before it claims (a worker
    session may use only the claims of managers it registered)."""
    assert await queue_worker_beat(conn, manager, "bot", "test-host", 1)
    return manager


async def enqueue_sample(conn: asyncpg.Connection, event: str, key: str) -> None:
    """Commit one job of `event` with its valid sample payload, `key` as event and entity key."""
    async with conn.transaction():
        await enqueue_job_raw(
            conn, event_name=event, payload_json=sample_json(event), event_key=key, entity_key=key
        )


async def enqueue_behind_pending_parent(
    conn: asyncpg.Connection, event: str, parent_event: str, key: str
) -> None:
    """Commit one job of `event` that depends on a new, still queued job of `parent_event`: the
    start gate sends it back whenever it is claimed."""
    async with conn.transaction():
        parent = await enqueue_job_raw(
            conn,
            event_name=parent_event,
            payload_json=sample_json(parent_event),
            event_key=f"{key}:parent",
        )
        await enqueue_job_raw(
            conn,
            event_name=event,
            payload_json=sample_json(event),
            event_key=key,
            depends_on=parent.job.id,
        )


async def waits_on_a_transaction(conn: asyncpg.Connection, pid: int) -> bool:
    """Whether backend `pid` waits for another transaction to end (for a row or an index entry
    that transaction wrote and has not committed)."""
    return bool(
        await conn.fetchval(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1"
            " AND locktype = 'transactionid' AND NOT granted)",
            pid,
        )
    )


async def start_without_claiming(conn: asyncpg.Connection, job_id: int) -> None:
    """What a start that another claim's snapshot missed leaves: the entrypoint's running job,
    here written directly (not by queue_claim) and not yet committed, so the window in which
    the other claim meets it on the unique index stays open."""
    await conn.execute(
        "UPDATE pgqueuer SET status = 'picked', queue_manager_id = $2, heartbeat = now(), "
        "updated = now() WHERE id = $1",
        job_id,
        uuid4(),
    )
