"""Enqueue jobs in the caller's business transaction: one, or a batch in one call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from uuid import UUID

import asyncpg
import msgspec
from genji_queue import enqueue, enqueue_batch
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


@dataclass(frozen=True)
class JobRequest:
    """One job of `enqueue_jobs`: the arguments `enqueue_job` takes for it."""

    event_name: str
    payload: msgspec.Struct
    event_key: str
    entity_key: str | None
    depends_on: UUID | None = None


async def enqueue_jobs(
    conn: asyncpg.Connection,
    jobs: Sequence[JobRequest],
    *,
    trace: Mapping[str, str] | None = None,
    registry: EventRegistry = REGISTRY,
) -> list[JobStatusResponse]:
    """Create or resolve the durable job of every request on `conn`, in one call.

    The same as one `enqueue_job` per request, in order, on the caller's open transaction:
    a key that already has a job (an earlier request of the batch included) resolves to it,
    and any error enqueues none of them. Returns one status per request, in order.
    """
    if not conn.is_in_transaction():
        raise NotInTransactionError("enqueue_jobs must run inside the caller's transaction")
    if not jobs:
        return []
    items = [
        enqueue_batch.BatchItem(
            event_name=job.event_name,
            payload_json=registry.encode(job.event_name, job.payload, check=False).decode(),
            event_key=job.event_key,
            entity_key=job.entity_key,
            depends_on=job.depends_on,
            schema_version=registry.get(job.event_name).payload_version,
        )
        for job in jobs
    ]
    enqueued = await enqueue_batch.enqueue_jobs(conn, items, trace=sanitize_trace(trace or {}))
    return [each.job for each in enqueued]
