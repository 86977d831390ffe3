"""sql/retention_schedule.sql: queue_retention_run."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from genji_queue.calls import Session, sql_call

_RUN = sql_call(
    "queue_retention_run",
    "SELECT ran, pruned, batches, started_at FROM queue_retention_run($1, $2, $3, $4)",
)


@dataclass(frozen=True)
class RetentionRun:
    ran: bool
    """False when the last run is recent, or another process is running it now."""
    pruned: int
    """Jobs whose detailed logs were removed (their summaries stay on public.jobs)."""
    batches: int
    started_at: datetime | None


async def queue_retention_run(
    session: Session,
    every: timedelta = timedelta(days=1),
    retention: timedelta = timedelta(days=30),
    batch: int = 1000,
    max_batches: int = 100,
) -> RetentionRun:
    """Prune finished jobs' logs if the last run started `every` ago; one process at a time."""
    row = await _RUN.row(session, every, retention, batch, max_batches)
    return RetentionRun(row["ran"], row["pruned"], row["batches"], row["started_at"])
