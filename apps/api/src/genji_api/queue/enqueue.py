"""Enqueue a job in the caller's business transaction."""

from __future__ import annotations

import json
from collections.abc import Mapping
from uuid import UUID

import asyncpg
import msgspec
from genji_sdk import REGISTRY, EventRegistry, sanitize_trace
from genji_sdk.jobs import JobStatusResponse

from genji_api.queue.errors import NotInTransactionError, translate

ENQUEUE_SQL = """
SELECT job_id, status, error_code, error_msg
FROM enqueue_job($1, $2::jsonb, $3, $4, $5, $6, $7::jsonb)
"""


async def enqueue_job(
    conn: asyncpg.Connection,
    *,
    event_name: str,
    payload: msgspec.Struct,
    event_key: str,
    entity_key: str | None,
    depends_on: UUID | None = None,
    trace: Mapping[str, str] | None = None,
    registry: EventRegistry = REGISTRY,
) -> JobStatusResponse:
    """Create or resolve the durable job for (event_name, event_key) on `conn`.

    Runs inside the caller's open transaction and never commits: a rollback removes the job
    identity and its queue row together with the business change. Enqueuing the same key again
    returns the existing job and its current status. The database checks the payload against
    its contract (InvalidJobRequestError, GJ003, naming the field) at the version `registry`
    gives the event.
    """
    if not conn.is_in_transaction():
        raise NotInTransactionError("enqueue_job must run inside the caller's transaction")
    spec = registry.get(event_name)
    body = registry.encode(event_name, payload, check=False).decode()
    try:
        row = await conn.fetchrow(
            ENQUEUE_SQL,
            event_name,
            body,
            event_key,
            entity_key,
            depends_on,
            spec.payload_version,
            json.dumps(sanitize_trace(trace or {})),
        )
    except asyncpg.PostgresError as error:
        raise translate(error) from error
    assert row is not None
    return JobStatusResponse(
        id=row["job_id"],
        status=row["status"],
        error_code=row["error_code"],
        error_msg=row["error_msg"],
    )
