"""sql/retention.sql: queue_prune_logs."""

from __future__ import annotations

from datetime import timedelta

from genji_queue.calls import Session, sql_call

_PRUNE = sql_call("queue_prune_logs", "SELECT queue_prune_logs($1, $2) AS pruned")


async def queue_prune_logs(
    session: Session, retention: timedelta = timedelta(days=30), batch: int = 1000
) -> int:
    """Summarize and prune logs of finished jobs older than `retention`; returns jobs pruned."""
    row = await _PRUNE.row(session, retention, batch)
    return int(row["pruned"])
