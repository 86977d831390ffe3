"""sql/enqueue.sql: enqueue_job, wrapped as `enqueue_job_raw`.

Raw: it takes an event name and payload JSON as they are stored. Services enqueue a payload
struct through `genji_api.queue.enqueue.enqueue_job`, which names the event and encodes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from uuid import UUID

from genji_sdk.jobs import JobStatusResponse

from genji_queue.calls import Session, sql_call

_ENQUEUE = sql_call(
    "enqueue_job",
    "SELECT job_id, status, error_code, error_msg, created "
    "FROM enqueue_job($1, $2::jsonb, $3, $4, $5, $6, $7::jsonb, $8)",
)


@dataclass(frozen=True)
class Enqueued:
    job: JobStatusResponse
    created: bool
    """False when the identity already existed and this call resolved to it."""


async def enqueue_job_raw(
    session: Session,
    *,
    event_name: str,
    payload_json: str,
    event_key: str,
    entity_key: str | None = None,
    depends_on: UUID | None = None,
    schema_version: int | None = None,
    trace: Mapping[str, str] | None = None,
    job_id: UUID | None = None,
) -> Enqueued:
    """Create or resolve the job for (event_name, event_key) in the caller's transaction.

    `job_id` gives a new job that public id instead of a fresh one (a legacy row with that id,
    the same event and no event key is adopted); producers leave it None.
    """
    row = await _ENQUEUE.row(
        session,
        event_name,
        payload_json,
        event_key,
        entity_key,
        depends_on,
        schema_version,
        json.dumps(dict(trace or {})),
        job_id,
    )
    job = JobStatusResponse(
        id=row["job_id"],
        status=row["status"],
        error_code=row["error_code"],
        error_msg=row["error_msg"],
    )
    return Enqueued(job=job, created=row["created"])
