"""sql/bindings.sql: Discord effect bindings, each call in the API's own short transaction."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from genji_sdk import ClaimToken
from genji_sdk.sends import BindingState

from genji_queue.calls import Session, sql_call

SettledState = Literal["skipped", "failed", "uncertain"]

_COLUMNS = (
    "(b).state, (b).channel_id, (b).message_id, (b).thread_id, (b).detail::text AS detail, "
    "(b).created_at, (b).updated_at"
)
_BEGIN = sql_call(
    "effect_binding_begin",
    f"SELECT fresh, {_COLUMNS} "
    "FROM effect_binding_begin($1, $2, $3, $4, $5, $6, $7) AS r(fresh, b)",
)
_COMPLETE = sql_call(
    "effect_binding_complete",
    f"SELECT {_COLUMNS} FROM effect_binding_complete($1, $2, $3, $4, $5, $6) AS b",
)
_SETTLE = sql_call(
    "effect_binding_settle",
    f"SELECT {_COLUMNS} FROM effect_binding_settle($1, $2, $3, $4, $5::jsonb, $6, $7, $8) AS b",
)
_RELEASE = sql_call(
    "effect_binding_release",
    "SELECT effect_binding_release($1, $2, $3, $4, $5, $6) AS released",
)


@dataclass(frozen=True)
class Binding:
    state: BindingState
    channel_id: int | None
    message_id: int | None
    thread_id: int | None
    detail: dict[str, Any]
    created_at: datetime
    updated_at: datetime

    @property
    def fingerprint(self) -> str | None:
        value = self.detail.get("fingerprint")
        return value if isinstance(value, str) else None


def _binding(row: Any) -> Binding:
    return Binding(
        state=row["state"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        thread_id=row["thread_id"],
        detail=json.loads(row["detail"]) if row["detail"] else {},
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


async def effect_binding_begin(
    session: Session,
    claim: ClaimToken,
    job_id: UUID,
    effect_key: str,
    destination: str,
    fingerprint: str,
) -> tuple[bool, Binding]:
    """(fresh, binding): fresh when this call recorded the intent, so the caller may send."""
    row = await _BEGIN.row(
        session,
        job_id,
        effect_key,
        destination,
        fingerprint,
        claim.queue_job_id,
        claim.queue_manager_id,
        claim.claimed_at,
    )
    return row["fresh"], _binding(row)


async def effect_binding_complete(
    session: Session,
    job_id: UUID,
    effect_key: str,
    destination: str,
    *,
    channel_id: int | None,
    message_id: int | None,
    thread_id: int | None = None,
) -> Binding:
    row = await _COMPLETE.row(
        session, job_id, effect_key, destination, channel_id, message_id, thread_id
    )
    return _binding(row)


async def effect_binding_settle(
    session: Session,
    claim: ClaimToken,
    job_id: UUID,
    effect_key: str,
    destination: str,
    state: SettledState,
    detail: dict[str, Any] | None = None,
) -> Binding:
    row = await _SETTLE.row(
        session,
        job_id,
        effect_key,
        destination,
        state,
        json.dumps(detail or {}),
        claim.queue_job_id,
        claim.queue_manager_id,
        claim.claimed_at,
    )
    return _binding(row)


async def effect_binding_release(
    session: Session, claim: ClaimToken, job_id: UUID, effect_key: str, destination: str
) -> bool:
    """Forget an intent whose send surely did not happen; True when one was forgotten."""
    row = await _RELEASE.row(
        session,
        job_id,
        effect_key,
        destination,
        claim.queue_job_id,
        claim.queue_manager_id,
        claim.claimed_at,
    )
    released: bool = row["released"]
    return released
