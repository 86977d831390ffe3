"""sql/complete.sql: queue_complete."""

from __future__ import annotations

from genji_sdk import ClaimToken

from genji_queue.calls import Session, sql_call

_COMPLETE = sql_call("queue_complete", "SELECT queue_complete($1, $2, $3) AS written")


async def queue_complete(session: Session, claim: ClaimToken) -> bool:
    """Record success; False when the claim is stale (nothing was written)."""
    row = await _COMPLETE.row(session, claim.queue_job_id, claim.queue_manager_id, claim.claimed_at)
    return bool(row["written"])
