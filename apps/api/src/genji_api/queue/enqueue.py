"""Enqueue a job in the caller's business transaction."""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID

import asyncpg
import msgspec
from genji_queue import enqueue
from genji_queue.errors import NotInTransactionError
from genji_sdk import REGISTRY, EventRegistry, sanitize_trace
from genji_sdk.jobs import JobStatusResponse


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
    job_id: UUID | None = None,
) -> JobStatusResponse:
    """Create or resolve the durable job for (event_name, event_key) on `conn`.

    Runs inside the caller's open transaction and never commits: a rollback removes the job
    identity and its queue row together with the business change. Enqueuing the same key again
    returns the existing job and its current status. The database checks the payload against
    its contract (InvalidJobRequestError, GJ003, naming the field) at the version `registry`
    gives the event. `job_id` keeps a known public id (the broker import); producers omit it.
    """
    if not conn.is_in_transaction():
        raise NotInTransactionError("enqueue_job must run inside the caller's transaction")
    enqueued = await enqueue.enqueue_job(
        conn,
        event_name=event_name,
        payload_json=registry.encode(event_name, payload, check=False).decode(),
        event_key=event_key,
        entity_key=entity_key,
        depends_on=depends_on,
        schema_version=registry.get(event_name).payload_version,
        trace=sanitize_trace(trace or {}),
        job_id=job_id,
    )
    return enqueued.job
