"""sql/heartbeat.sql: queue_heartbeat."""

from __future__ import annotations

from collections.abc import Iterable

from genji_sdk import ClaimToken

from genji_queue.calls import Session, sql_call

_HEARTBEAT = sql_call("queue_heartbeat", "SELECT queue_heartbeat($1, $2, $3) AS lost")


async def queue_heartbeat(session: Session, claims: Iterable[ClaimToken]) -> set[int]:
    """Beat every claim still held; returns the queue ids of those no longer held."""
    held = list(claims)
    if not held:
        return set()
    rows = await _HEARTBEAT.rows(
        session,
        [c.queue_job_id for c in held],
        [c.queue_manager_id for c in held],
        [c.claimed_at for c in held],
    )
    return {int(row["lost"]) for row in rows}
