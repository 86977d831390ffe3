"""sql/release.sql: queue_release."""

from __future__ import annotations

from genji_sdk import ClaimToken

from genji_queue.calls import Session, sql_call

_RELEASE = sql_call("queue_release", "SELECT queue_release($1, $2, $3, $4) AS written")


async def queue_release(session: Session, claim: ClaimToken, reason: str) -> bool:
    """Return an interrupted execution's job to the queue without charging it."""
    row = await _RELEASE.row(
        session, claim.queue_job_id, claim.queue_manager_id, claim.claimed_at, reason
    )
    return bool(row["written"])
