"""sql/job_lookup.sql: job_lookup and job_list_finished."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast
from uuid import UUID

from genji_sdk.inspection import JobList, JobListItem
from genji_sdk.recovery import RecoveryState

from genji_queue.calls import Session, sql_call

_LOOKUP = sql_call(
    "job_lookup",
    "SELECT job_id, queue_job_id, event_name, created_at FROM job_lookup($1, $2)",
)
_FINISHED = sql_call(
    "job_list_finished",
    "SELECT job_id, event_name, state, uncertain, retry_generation, handler_failures, "
    "error_code, error_msg, created_at, held_at, finished_at FROM job_list_finished($1, $2, $3)",
)


@dataclass(frozen=True)
class JobCandidate:
    """A job a reference may mean."""

    job_id: UUID
    queue_job_id: int | None
    event_name: str
    created_at: datetime | None


async def job_lookup(session: Session, reference: str, limit: int) -> list[JobCandidate]:
    """The jobs `reference` may mean (a UUID, a prefix of at least 8 hex digits, or a queue
    id), at most `limit`, by public id. InvalidJobRequestError for any other reference."""
    rows = await _LOOKUP.rows(session, reference, limit)
    return [JobCandidate(**dict(row)) for row in rows]


async def job_list_finished(
    session: Session, state: str | None, entrypoint: str | None, limit: int
) -> JobList:
    """Finished jobs in `state` (succeeded, discarded; None for both), most recently finished
    first."""
    rows = await _FINISHED.rows(session, state, entrypoint, limit)
    return JobList(
        jobs=[
            JobListItem(
                id=row["job_id"],
                event_name=row["event_name"],
                state=cast(RecoveryState, row["state"]),
                uncertain=row["uncertain"],
                retry_generation=row["retry_generation"],
                handler_failures=row["handler_failures"],
                error_code=row["error_code"],
                error_msg=row["error_msg"],
                created_at=row["created_at"],
                held_at=row["held_at"],
                finished_at=row["finished_at"],
            )
            for row in rows
        ]
    )
