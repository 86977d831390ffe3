"""Enqueue jobs in the caller's business transaction: one, or a batch in one call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from uuid import UUID

import asyncpg
import msgspec
from genji_queue import enqueue, enqueue_batch
from genji_queue.errors import NotInTransactionError
from genji_sdk import REGISTRY, EventRegistry, EventSpec, PayloadTypeError, sanitize_trace
from genji_sdk.jobs import JobStatusResponse


def event_of(registry: EventRegistry, payload: msgspec.Struct, stated: str | None) -> EventSpec:
    """The event of `payload`'s type; a name stated as well (a broker import's) must be a
    registered event (UnknownEventError otherwise) and be it."""
    if stated is not None:
        registry.get(stated)
    spec = registry.for_payload(type(payload))
    if stated is not None and stated != spec.name:
        raise PayloadTypeError(
            f"event {stated!r} does not take {type(payload).__qualname__} "
            f"(the payload of {spec.name!r})"
        )
    return spec


async def enqueue_job(
    conn: asyncpg.Connection,
    *,
    payload: msgspec.Struct,
    event_key: str,
    entity_key: str | None,
    depends_on: UUID | None = None,
    trace: Mapping[str, str] | None = None,
    registry: EventRegistry = REGISTRY,
    job_id: UUID | None = None,
    event_name: str | None = None,
) -> JobStatusResponse:
    """Create or resolve the durable job for (the payload's event, event_key) on `conn`.

    The event is the one `registry` registers `payload`'s type for; producers name no event.
    `event_name`, when given (a broker import states the name it read), must be that one.

    Runs inside the caller's open transaction and never commits: a rollback removes the job
    identity and its queue row together with the business change. Enqueuing the same key again
    returns the existing job and its current status. The database checks the payload against
    its contract (InvalidJobRequestError, GJ003, naming the field) at the version `registry`
    gives the event. `job_id` keeps a known public id (the broker import); producers omit it.
    """
    if not conn.is_in_transaction():
        raise NotInTransactionError("enqueue_job must run inside the caller's transaction")
    spec = event_of(registry, payload, event_name)
    enqueued = await enqueue.enqueue_job_raw(
        conn,
        event_name=spec.name,
        payload_json=registry.encode(spec.name, payload, check=False).decode(),
        event_key=event_key,
        entity_key=entity_key,
        depends_on=depends_on,
        schema_version=spec.payload_version,
        trace=sanitize_trace(trace or {}),
        job_id=job_id,
    )
    return enqueued.job


@dataclass(frozen=True)
class JobRequest:
    """One job of `enqueue_jobs`: the arguments `enqueue_job` takes for it."""

    payload: msgspec.Struct
    event_key: str
    entity_key: str | None
    depends_on: UUID | None = None


async def enqueue_request(
    conn: asyncpg.Connection, job: JobRequest, *, trace: Mapping[str, str] | None = None
) -> JobStatusResponse:
    """`enqueue_job` of one request, for a producer that also builds requests for a batch."""
    return await enqueue_job(
        conn,
        payload=job.payload,
        event_key=job.event_key,
        entity_key=job.entity_key,
        depends_on=job.depends_on,
        trace=trace,
    )


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
    specs = [event_of(registry, job.payload, None) for job in jobs]
    items = [
        enqueue_batch.BatchItem(
            event_name=spec.name,
            payload_json=registry.encode(spec.name, job.payload, check=False).decode(),
            event_key=job.event_key,
            entity_key=job.entity_key,
            depends_on=job.depends_on,
            schema_version=spec.payload_version,
        )
        for job, spec in zip(jobs, specs, strict=True)
    ]
    enqueued = await enqueue_batch.enqueue_jobs(conn, items, trace=sanitize_trace(trace or {}))
    return [each.job for each in enqueued]
