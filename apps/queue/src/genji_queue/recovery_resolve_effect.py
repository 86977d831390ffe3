"""sql/recovery_resolve_effect.sql: recovery_resolve_effect."""

from __future__ import annotations

from uuid import UUID

import msgspec
from genji_sdk.recovery import RecoveryResult, ResolveEffectRequest

from genji_queue.calls import Session, sql_call
from genji_queue.recovery_result import COLUMNS, recovery_result

_RESOLVE = sql_call(
    "recovery_resolve_effect",
    f"SELECT {COLUMNS} FROM recovery_resolve_effect("
    "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)",
)


async def recovery_resolve_effect(
    session: Session, job_id: UUID, request: ResolveEffectRequest
) -> RecoveryResult:
    """Record what became of an uncertain send of a held job: located, or to be sent again."""
    row = await _RESOLVE.row(
        session,
        job_id,
        request.effect_key,
        request.destination,
        request.decision,
        request.channel_id,
        request.message_id,
        request.thread_id,
        request.expected_generation,
        request.idempotency_key,
        request.actor_id,
        request.reason,
        msgspec.json.encode(request.context).decode(),
    )
    return recovery_result(row, "resolution")
