"""sql/recovery_retry.sql: recovery_retry."""

from __future__ import annotations

from uuid import UUID

import msgspec
from genji_sdk.recovery import RecoveryResult, RetryRequest

from genji_queue.calls import Session, sql_call
from genji_queue.recovery_result import COLUMNS, recovery_result

_RETRY = sql_call(
    "recovery_retry", f"SELECT {COLUMNS} FROM recovery_retry($1, $2, $3, $4, $5::jsonb)"
)


async def recovery_retry(session: Session, job_id: UUID, request: RetryRequest) -> RecoveryResult:
    """Requeue a held job as its next generation, audited; any other state changes nothing."""
    row = await _RETRY.row(
        session,
        job_id,
        request.expected_generation,
        request.idempotency_key,
        request.actor_id,
        msgspec.json.encode(request.context).decode(),
    )
    return recovery_result(row, "retry")
