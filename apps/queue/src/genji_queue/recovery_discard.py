"""sql/recovery_discard.sql: recovery_discard."""

from __future__ import annotations

from uuid import UUID

import msgspec
from genji_sdk.recovery import DiscardRequest, RecoveryResult

from genji_queue.calls import Session, sql_call
from genji_queue.recovery_result import COLUMNS, recovery_result

_DISCARD = sql_call(
    "recovery_discard", f"SELECT {COLUMNS} FROM recovery_discard($1, $2, $3, $4, $5, $6::jsonb)"
)


async def recovery_discard(
    session: Session, job_id: UUID, request: DiscardRequest
) -> RecoveryResult:
    """End a held job as discarded, audited, and wake the jobs that waited for it."""
    row = await _DISCARD.row(
        session,
        job_id,
        request.expected_generation,
        request.idempotency_key,
        request.actor_id,
        request.reason,
        msgspec.json.encode(request.context).decode(),
    )
    return recovery_result(row, "discard")
