"""sql/metrics.sql: queue_metrics."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from genji_queue.calls import Session, sql_call

_METRICS = sql_call("queue_metrics", "SELECT * FROM queue_metrics($1)")


async def queue_metrics(session: Session, alive_within: timedelta) -> dict[str, Any]:
    """One row of queue health: depth by state, oldest ready age, held, uncertain, workers."""
    row = await _METRICS.row(session, alive_within)
    return dict(row)
