"""sql/status.sql: job_public_status."""

from __future__ import annotations

from uuid import UUID

from genji_sdk.jobs import JobStatusResponse

from genji_queue.calls import Session, sql_call

_STATUS = sql_call(
    "job_public_status", "SELECT job_id, status, error_code, error_msg FROM job_public_status($1)"
)


async def job_public_status(session: Session, job_id: UUID) -> JobStatusResponse:
    row = await _STATUS.row(session, job_id)
    return JobStatusResponse(
        id=row["job_id"],
        status=row["status"],
        error_code=row["error_code"],
        error_msg=row["error_msg"],
    )
