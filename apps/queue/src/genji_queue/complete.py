"""sql/complete.sql: queue_complete, queue_complete_many."""

from __future__ import annotations

from collections.abc import Iterable

from genji_sdk import ClaimToken

from genji_queue.calls import Session, sql_call

_COMPLETE = sql_call("queue_complete", "SELECT queue_complete($1, $2, $3) AS written")
_COMPLETE_MANY = sql_call(
    "queue_complete_many", "SELECT queue_complete_many($1, $2, $3) AS written"
)


async def queue_complete(session: Session, claim: ClaimToken) -> bool:
    """Record success; False when the claim is stale (nothing was written)."""
    row = await _COMPLETE.row(session, claim.queue_job_id, claim.queue_manager_id, claim.claimed_at)
    return bool(row["written"])


async def queue_complete_many(session: Session, claims: Iterable[ClaimToken]) -> set[ClaimToken]:
    """Record success of every claim in one statement; returns the claims written (a claim left
    out was stale, and nothing was written for it)."""
    held = list(claims)
    if not held:
        return set()
    row = await _COMPLETE_MANY.row(
        session,
        [c.queue_job_id for c in held],
        [c.queue_manager_id for c in held],
        [c.claimed_at for c in held],
    )
    return {claim for claim, written in zip(held, row["written"], strict=True) if written}
