"""sql/worker_retry_schedule.sql: queue_worker_retry_schedule and queue_worker_budgets."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from uuid import UUID

from genji_sdk import Owner
from genji_sdk.inspection import WorkerBudgetView

from genji_queue.calls import Session, sql_call

_RECORD = sql_call(
    "queue_worker_retry_schedule",
    "SELECT queue_worker_retry_schedule($1, $2) AS recorded",
)
_BUDGETS = sql_call(
    "queue_worker_budgets",
    "SELECT failure_budget, retry_delays, workers, live, last_beat_at "
    "FROM queue_worker_budgets($1)",
)


async def queue_worker_retry_schedule(
    session: Session, manager: UUID, delays: Sequence[timedelta]
) -> bool:
    """Record the retry schedule of the worker this session registered; False if it has no
    liveness row of this session."""
    row = await _RECORD.row(session, manager, [d.total_seconds() for d in delays])
    return bool(row["recorded"])


async def queue_worker_budgets(session: Session, owner: Owner) -> list[WorkerBudgetView]:
    """The failure budgets `owner`'s registered workers apply, one entry per schedule, live
    groups first."""
    rows = await _BUDGETS.rows(session, owner)
    return [
        WorkerBudgetView(
            failure_budget=row["failure_budget"],
            retry_delays=None if row["retry_delays"] is None else list(row["retry_delays"]),
            workers=row["workers"],
            live=row["live"],
            last_beat_at=row["last_beat_at"],
        )
        for row in rows
    ]
