"""sql/claim.sql: queue_claim."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from uuid import UUID

import asyncpg

from genji_queue.calls import Session, sql_call
from genji_queue.errors import RetryTransactionError

_CLAIM = sql_call(
    "queue_claim", "SELECT job, retry_generation FROM queue_claim($1, $2, $3, $4, $5)"
)
ONE_RUNNING_INDEX = "pgqueuer_one_running_per_entrypoint"


@dataclass(frozen=True)
class Claimed:
    row: dict[str, Any]
    """The claimed pgqueuer row; (id, queue_manager_id, updated) is the claim token."""
    retry_generation: int
    """For the handler's context: operator retries the job has had."""


async def queue_claim(
    session: Session,
    manager: UUID,
    entrypoints: Sequence[str],
    batch: int,
    worker_limit: int | None,
    wait: timedelta,
) -> list[Claimed]:
    """Claim up to `batch` jobs for `manager` and pass each through the start gate (waits of
    `wait`, doubling); returns the ones that may run now.

    A start of one of these entrypoints that the claim's snapshot missed fails the claim on the
    unique index of running jobs, or deadlocks it when two such starts crossed; either leaves
    nothing claimed: that is an empty claim, not an error, and the next poll claims again."""
    try:
        rows = await _CLAIM.rows(session, manager, list(entrypoints), batch, worker_limit, wait)
    except asyncpg.UniqueViolationError as error:
        if error.constraint_name != ONE_RUNNING_INDEX:
            raise
        return []
    except RetryTransactionError:
        return []
    return [Claimed(dict(row["job"]), row["retry_generation"]) for row in rows]
