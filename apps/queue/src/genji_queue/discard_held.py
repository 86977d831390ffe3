"""sql/discard_held.sql: queue_discard_held."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast
from uuid import UUID

from genji_queue.calls import Session, sql_call

_DISCARD = sql_call(
    "queue_discard_held", "SELECT outcome, action_id, resumed FROM queue_discard_held($1, $2, $3)"
)

DiscardOutcome = Literal["discarded", "already discarded"]


@dataclass(frozen=True)
class Discarded:
    outcome: DiscardOutcome
    action_id: int
    """The job_actions row recording the discard (the first call's, when repeated)."""
    resumed: int
    """Jobs that waited for it and were made ready."""


async def queue_discard_held(
    session: Session, job_id: UUID, actor_id: int, reason: str
) -> Discarded:
    """End a held job as discarded, audited, and wake the jobs that waited for it."""
    row = await _DISCARD.row(session, job_id, actor_id, reason)
    return Discarded(cast(DiscardOutcome, row["outcome"]), row["action_id"], row["resumed"])
