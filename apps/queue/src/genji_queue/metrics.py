"""sql/metrics.sql: queue_metrics and queue_entrypoint_metrics."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from genji_queue.calls import Session, sql_call

_METRICS = sql_call("queue_metrics", "SELECT * FROM queue_metrics($1)")
_ENTRYPOINTS = sql_call("queue_entrypoint_metrics", "SELECT * FROM queue_entrypoint_metrics()")


@dataclass(frozen=True)
class EntrypointMetrics:
    """Queue depth of one registered entrypoint."""

    entrypoint: str
    owner: str
    ready: int
    delayed: int
    running: int
    held: int
    oldest_ready_age: timedelta | None
    """None when no job of the entrypoint is ready."""


async def queue_metrics(session: Session, alive_within: timedelta) -> dict[str, Any]:
    """One row of queue health: depth by state, oldest ready age, held, uncertain, workers."""
    row = await _METRICS.row(session, alive_within)
    return dict(row)


async def queue_entrypoint_metrics(session: Session) -> list[EntrypointMetrics]:
    """Depth by state and oldest ready age of every registered entrypoint, idle ones as zeros."""
    rows = await _ENTRYPOINTS.rows(session)
    return [EntrypointMetrics(**dict(row)) for row in rows]
