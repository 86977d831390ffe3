"""sql/effect_actions.sql: effect_action_check, run before a receipt or binding is touched."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from genji_queue.calls import Session, sql_call

_CHECK = sql_call(
    "effect_action_check", "SELECT effect_action_check($1, $2, $3::text[]) AS event_name"
)


async def effect_action_check(
    session: Session, job_id: UUID, effect_key: str, allowed_events: Iterable[str]
) -> str:
    """The job's event name; EffectNotAllowedError when it may not request `effect_key`."""
    row = await _CHECK.row(session, job_id, effect_key, sorted(allowed_events))
    event: str = row["event_name"]
    return event
