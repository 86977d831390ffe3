"""sql/metrics.sql: queue_metrics and queue_entrypoint_metrics."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import msgspec

from genji_queue.calls import Session, sql_call
from genji_queue.types import QueueMetrics, SilentWorker

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


def _silent_workers(value: object) -> tuple[SilentWorker, ...]:
    # jsonb arrives as text on a plain connection and decoded on one with a json codec.
    kind = tuple[SilentWorker, ...]
    if isinstance(value, str):
        return msgspec.json.decode(value, type=kind)
    return msgspec.convert(value, kind)


async def queue_metrics(session: Session, alive_within: timedelta) -> QueueMetrics:
    """One row of queue health: depth by state, oldest ready age, held, uncertain, workers."""
    row = dict(await _METRICS.row(session, alive_within))
    silent = _silent_workers(row.pop("silent_workers"))
    return QueueMetrics(**row, silent_workers=silent)


async def queue_entrypoint_metrics(session: Session) -> list[EntrypointMetrics]:
    """Depth by state and oldest ready age of every registered entrypoint, idle ones as zeros."""
    rows = await _ENTRYPOINTS.rows(session)
    return [EntrypointMetrics(**dict(row)) for row in rows]
