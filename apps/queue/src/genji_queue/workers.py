"""sql/workers.sql: queue_config, queue_worker_beat and queue_worker_stopped."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from genji_sdk import Owner

from genji_queue.calls import Session, sql_call

_CONFIG = sql_call("queue_config", "SELECT stale_heartbeat, max_reclaims FROM queue_config()")
_BEAT = sql_call("queue_worker_beat", "SELECT queue_worker_beat($1, $2, $3, $4) AS registered")
_STOPPED = sql_call("queue_worker_stopped", "SELECT queue_worker_stopped($1) AS removed")


@dataclass(frozen=True)
class QueueConfig:
    stale_heartbeat: timedelta
    """A claim whose heartbeat is older than this is reclaimed (workers beat at half of it)."""
    max_reclaims: int
    """Worker deaths tolerated while one job runs before it is held for the operator."""


async def queue_config(session: Session) -> QueueConfig:
    row = await _CONFIG.row(session)
    return QueueConfig(row["stale_heartbeat"], row["max_reclaims"])


async def queue_worker_beat(
    session: Session, manager: UUID, owner: Owner, host: str, pid: int
) -> bool:
    """Register or refresh this session's liveness row; False if another live session owns it."""
    row = await _BEAT.row(session, manager, owner, host, pid)
    return bool(row["registered"])


async def queue_worker_stopped(session: Session, manager: UUID) -> bool:
    """Remove a liveness row of this session, or of one that has ended."""
    row = await _STOPPED.row(session, manager)
    return bool(row["removed"])
