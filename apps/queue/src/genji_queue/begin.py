"""sql/begin.sql: queue_begin."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from genji_sdk import ClaimToken

from genji_queue.calls import Session, sql_call
from genji_queue.types import BeginDecision

_BEGIN = sql_call(
    "queue_begin",
    "SELECT decision, retry_generation, handler_failures FROM queue_begin($1, $2, $3, $4)",
)


@dataclass(frozen=True)
class Begin:
    decision: BeginDecision
    retry_generation: int | None
    handler_failures: int | None


async def queue_begin(session: Session, claim: ClaimToken, wait: timedelta) -> Begin:
    """Decide whether the claimed job may run now; waits and holds are written by it."""
    row = await _BEGIN.row(
        session, claim.queue_job_id, claim.queue_manager_id, claim.claimed_at, wait
    )
    return Begin(row["decision"], row["retry_generation"], row["handler_failures"])
