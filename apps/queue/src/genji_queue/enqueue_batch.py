"""sql/enqueue_batch.sql: enqueue_jobs."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from uuid import UUID

from genji_sdk.jobs import JobStatusResponse

from genji_queue.calls import Session, sql_call
from genji_queue.enqueue import Enqueued

_ENQUEUE_JOBS = sql_call(
    "enqueue_jobs",
    "SELECT item, job_id, status, error_code, error_msg, created "
    "FROM enqueue_jobs($1::text[], $2::jsonb[], $3::text[], $4::text[], $5::uuid[], "
    "$6::integer[], $7::jsonb)",
)


@dataclass(frozen=True)
class BatchItem:
    """One job of a batch: what enqueue_job takes for it, minus the batch's trace."""

    event_name: str
    payload_json: str
    event_key: str
    entity_key: str | None = None
    depends_on: UUID | None = None
    schema_version: int | None = None


async def enqueue_jobs(
    session: Session, items: Sequence[BatchItem], *, trace: Mapping[str, str] | None = None
) -> list[Enqueued]:
    """Create or resolve the job of every item in the caller's transaction, in item order.

    The outcome is that of one enqueue_job call per item: an item whose key already has a job
    (an earlier item of the batch included) resolves to it; any error enqueues nothing. The
    result has one entry per item, in the same order.
    """
    rows = await _ENQUEUE_JOBS.rows(
        session,
        [item.event_name for item in items],
        [item.payload_json for item in items],
        [item.event_key for item in items],
        [item.entity_key for item in items],
        [item.depends_on for item in items],
        [item.schema_version for item in items],
        json.dumps(dict(trace or {})),
    )
    assert [row["item"] for row in rows] == list(range(1, len(items) + 1))
    return [
        Enqueued(
            job=JobStatusResponse(
                id=row["job_id"],
                status=row["status"],
                error_code=row["error_code"],
                error_msg=row["error_msg"],
            ),
            created=row["created"],
        )
        for row in rows
    ]
