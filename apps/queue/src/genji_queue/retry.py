"""sql/retry.sql: queue_retry and queue_fail."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta
from typing import cast

from genji_sdk import ClaimToken

from genji_queue.calls import Session, sql_call
from genji_queue.types import ErrorRecord, FailOutcome

_RETRY = sql_call("queue_retry", "SELECT queue_retry($1, $2, $3, $4, $5::jsonb, $6) AS written")
_FAIL = sql_call("queue_fail", "SELECT queue_fail($1, $2, $3, $4, $5::jsonb) AS outcome")


async def queue_retry(
    session: Session,
    claim: ClaimToken,
    delay: timedelta,
    error: ErrorRecord | None,
    handler_failure: bool = False,
) -> bool:
    """Put the job back after `delay`; the failure budget is charged only for handler failures."""
    row = await _RETRY.row(
        session,
        claim.queue_job_id,
        claim.queue_manager_id,
        claim.claimed_at,
        delay,
        json.dumps(error),
        handler_failure,
    )
    return bool(row["written"])


async def queue_fail(
    session: Session, claim: ClaimToken, delays: Sequence[timedelta], error: ErrorRecord
) -> FailOutcome:
    """Charge one handler failure and apply the retry schedule (then hold)."""
    row = await _FAIL.row(
        session,
        claim.queue_job_id,
        claim.queue_manager_id,
        claim.claimed_at,
        list(delays),
        json.dumps(error),
    )
    return cast(FailOutcome, row["outcome"])
