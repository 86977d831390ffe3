"""sql/hold.sql: queue_hold."""

from __future__ import annotations

import json

from genji_sdk import ClaimToken

from genji_queue.calls import Session, sql_call
from genji_queue.types import ErrorRecord

_HOLD = sql_call("queue_hold", "SELECT queue_hold($1, $2, $3, $4::jsonb, $5) AS written")


async def queue_hold(
    session: Session, claim: ClaimToken, error: ErrorRecord | None, handler_failure: bool = False
) -> bool:
    """Hold the claimed job for the operator, keeping its payload."""
    row = await _HOLD.row(
        session,
        claim.queue_job_id,
        claim.queue_manager_id,
        claim.claimed_at,
        json.dumps(error),
        handler_failure,
    )
    return bool(row["written"])
