"""sql/claim.sql: queue_claim, queue_complete_and_claim."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from uuid import UUID

import asyncpg
from genji_sdk import ClaimToken

from genji_queue.calls import Session, sql_call
from genji_queue.complete import queue_complete_many
from genji_queue.errors import RetryTransactionError

_CLAIM = sql_call(
    "queue_claim",
    "SELECT jobs, retry_generations, more_ready, queued, next_due"
    " FROM queue_claim($1, $2, $3, $4, $5)",
)
_COMPLETE_AND_CLAIM = sql_call(
    "queue_complete_and_claim",
    "SELECT written, jobs, retry_generations, more_ready, queued, next_due"
    " FROM queue_complete_and_claim($1, $2, $3, $4, $5, $6, $7, $8)",
)
ONE_RUNNING_INDEX = "pgqueuer_one_running_per_entrypoint"


@dataclass(frozen=True)
class Claimed:
    row: dict[str, Any]
    """The claimed pgqueuer row; (id, queue_manager_id, updated) is the claim token."""
    retry_generation: int
    """For the handler's context: operator retries the job has had."""


@dataclass(frozen=True)
class Outlook:
    """What a claim left that no other claim could take at once, read in its transaction."""

    queued: bool
    """Jobs of the claimable events are queued (ready, deferred, or behind a running job)."""
    next_due: timedelta | None
    """Until the soonest deferred job of those events is due; None if none is deferred."""


@dataclass(frozen=True)
class Claim:
    jobs: list[Claimed]
    """The jobs that may run now, in priority order."""
    outlook: Outlook | None
    """Set when another claim now would take nothing; None when it might, or when the guards
    let the session claim nothing."""


NOTHING_CLAIMED = Claim([], None)


async def queue_claim(
    session: Session,
    manager: UUID,
    entrypoints: Sequence[str],
    batch: int,
    worker_limit: int | None,
    wait: timedelta,
) -> Claim:
    """Claim up to `batch` jobs for `manager` and pass each through the start gate (waits of
    `wait`, doubling); returns the ones that may run now, and what the claim left.

    A start of one of these entrypoints that the claim's snapshot missed fails the claim on the
    unique index of running jobs, or deadlocks it when two such starts crossed; either leaves
    nothing claimed: that is an empty claim, not an error, and the next poll claims again."""
    try:
        row = await _CLAIM.row(session, manager, list(entrypoints), batch, worker_limit, wait)
    except asyncpg.UniqueViolationError as error:
        if error.constraint_name != ONE_RUNNING_INDEX:
            raise
        return NOTHING_CLAIMED
    except RetryTransactionError:
        return NOTHING_CLAIMED
    return _claim_of(row)


async def queue_complete_and_claim(
    session: Session,
    completed: Sequence[ClaimToken],
    manager: UUID,
    entrypoints: Sequence[str],
    batch: int,
    worker_limit: int | None,
    wait: timedelta,
) -> tuple[set[ClaimToken], Claim]:
    """Complete `completed` (as queue_complete_many) and then claim (as queue_claim), in one
    transaction; returns the completions written and the claim. A claim that loses a race for an
    entrypoint's running slot rolls the completions back with it: they are then written alone,
    and nothing is claimed."""
    try:
        row = await _COMPLETE_AND_CLAIM.row(
            session,
            [c.queue_job_id for c in completed],
            [c.queue_manager_id for c in completed],
            [c.claimed_at for c in completed],
            manager,
            list(entrypoints),
            batch,
            worker_limit,
            wait,
        )
    except asyncpg.UniqueViolationError as error:
        if error.constraint_name != ONE_RUNNING_INDEX:
            raise
        return await queue_complete_many(session, completed), NOTHING_CLAIMED
    except RetryTransactionError:
        return await queue_complete_many(session, completed), NOTHING_CLAIMED
    written = {claim for claim, done in zip(completed, row["written"], strict=True) if done}
    return written, _claim_of(row)


def _claim_of(row: Any) -> Claim:
    jobs = [
        Claimed(dict(job), generation)
        for job, generation in zip(row["jobs"], row["retry_generations"], strict=True)
    ]
    outlook = None
    if row["more_ready"] is False:
        outlook = Outlook(row["queued"], row["next_due"])
    return Claim(jobs, outlook)
