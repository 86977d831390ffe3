"""Held jobs for the alert tests, made through the queue's own functions: enqueue, claim, hold."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
from genji_api.queue.enqueue import enqueue_job
from genji_devstack.payload_samples import SAMPLES
from genji_queue.hold import queue_hold
from genji_queue.recovery_retry import recovery_retry
from genji_queue.release import queue_release
from genji_queue.retry import queue_retry
from genji_sdk import ClaimToken
from genji_sdk.recovery import OperatorContext, RetryRequest

from .queue_helpers import claim_next

BOT_EVENT = "api.xp.grant"
API_EVENT = "completion.ocr.requested"
OPERATOR = 141372217677053952


async def enqueue(conn: asyncpg.Connection, event: str, key: str) -> UUID:
    async with conn.transaction():
        job = await enqueue_job(
            conn,
            event_name=event,
            payload=SAMPLES[event],
            event_key=f"alerts:{key}",
            entity_key=f"alerts:{key}",
        )
    return job.id


async def _claim(conn: asyncpg.Connection, job_id: UUID) -> ClaimToken:
    event = await conn.fetchval("SELECT action FROM jobs WHERE id = $1", job_id)
    claimed = await claim_next(conn, uuid4(), event)
    assert claimed is not None and claimed.queue_manager_id is not None
    assert await conn.fetchval("SELECT id FROM jobs WHERE queue_job_id = $1", claimed.id) == job_id
    return ClaimToken(claimed.id, claimed.queue_manager_id, claimed.updated)


async def hold(conn: asyncpg.Connection, job_id: UUID, message: str = "boom") -> None:
    """Claim the job (it must be ready) and hold it, as a worker does after its last failure."""
    claim = await _claim(conn, job_id)
    error = {"exception_type": "RuntimeError", "exception_message": message}
    assert await queue_hold(conn, claim, error, handler_failure=True)


async def retrying(conn: asyncpg.Connection, event: str, key: str) -> UUID:
    """A job whose handler failed once: back in the queue for its automatic retry."""
    job_id = await enqueue(conn, event, key)
    claim = await _claim(conn, job_id)
    error = {"exception_type": "RuntimeError", "exception_message": "transient"}
    assert await queue_retry(conn, claim, timedelta(minutes=5), error, handler_failure=True)
    return job_id


async def interrupted(conn: asyncpg.Connection, event: str, key: str) -> UUID:
    """A job whose execution was cancelled by a shutdown: released back to the queue."""
    job_id = await enqueue(conn, event, key)
    assert await queue_release(conn, await _claim(conn, job_id), "shutdown")
    return job_id


async def held(conn: asyncpg.Connection, event: str, key: str, message: str = "boom") -> UUID:
    job_id = await enqueue(conn, event, key)
    await hold(conn, job_id, message)
    return job_id


async def retry_in(conn: asyncpg.Connection, job_id: UUID) -> None:
    """An operator retry of the held job through recovery_retry, in the caller's transaction."""
    generation = await conn.fetchval("SELECT retry_generation FROM jobs WHERE id = $1", job_id)
    request = RetryRequest(
        expected_generation=generation,
        idempotency_key=f"alerts-test:{uuid4()}",
        actor_id=OPERATOR,
        context=OperatorContext(source="cli"),
    )
    result = await recovery_retry(conn, job_id, request)
    assert result.outcome == "accepted", result


async def retry(conn: asyncpg.Connection, job_id: UUID) -> None:
    async with conn.transaction():
        await retry_in(conn, job_id)


async def enqueue_malformed(conn: asyncpg.Connection, event: str, key: str) -> UUID:
    """A job whose stored payload breaks its contract, as a row written before contracts were
    enforced: the first worker to claim it holds it as MalformedPayload, without retries. The
    payload is rewritten in the enqueue's transaction, so no worker sees it valid."""
    async with conn.transaction():
        job_id = await enqueue(conn, event, key)
        await conn.execute(
            """UPDATE pgqueuer q
               SET payload = convert_to(jsonb_set(convert_from(q.payload, 'UTF8')::jsonb,
                                                  '{payload,user_id}', '"not-a-number"')::text,
                                        'UTF8')
               FROM jobs j WHERE j.queue_job_id = q.id AND j.id = $1""",
            job_id,
        )
    return job_id
