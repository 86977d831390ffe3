"""sql/worker_health.sql: queue_worker_health."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from genji_sdk import Owner

from genji_queue.calls import Session, sql_call

_HEALTH = sql_call(
    "queue_worker_health",
    "SELECT manager_id, pid, started_at, beat_at, silent_for, session_alive, consuming "
    "FROM queue_worker_health($1, $2)",
)


@dataclass(frozen=True)
class WorkerLiveness:
    manager_id: UUID
    pid: int
    started_at: datetime
    beat_at: datetime
    silent_for: timedelta
    session_alive: bool
    consuming: bool
    """Beaten within the stale-heartbeat threshold by a session that is still connected."""


async def queue_worker_health(session: Session, owner: Owner, host: str) -> list[WorkerLiveness]:
    """The liveness rows of `owner`'s workers on `host`, newest beat first."""
    rows = await _HEALTH.rows(session, owner, host)
    return [WorkerLiveness(**dict(row)) for row in rows]
