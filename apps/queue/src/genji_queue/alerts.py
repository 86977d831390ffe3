"""sql/alerts.sql: operator alert records and their card and reply bindings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, cast
from uuid import UUID

from genji_queue.calls import Session, sql_call

Decision = Literal["fresh", "completed", "busy", "reconcile"]

_CARD = (
    "(a).job_id, (a).guild_id, (a).channel_id, (a).message_id, (a).desired_version, "
    "(a).rendered_version, (a).state, (a).card_state, (a).card_intent_by, (a).card_intent_at, "
    "(a).card_intent_fingerprint, (a).card_intent_version"
)
_EPISODE = (
    "(e).job_id, (e).retry_generation, (e).state, (e).reply_message_id, (e).reply_channel_id, "
    "(e).reply_intent_by, (e).reply_intent_at, (e).reply_intent_fingerprint"
)

_RECONCILE = sql_call(
    "job_alerts_reconcile", "SELECT opened, changed FROM job_alerts_reconcile($1)"
)
_CARD_BEGIN = sql_call(
    "job_alert_card_begin",
    f"SELECT decision, {_CARD} FROM job_alert_card_begin($1, $2, $3, $4, $5, $6, $7, $8) "
    "AS r(decision, a)",
)
_CARD_COMPLETE = sql_call(
    "job_alert_card_complete", f"SELECT {_CARD} FROM job_alert_card_complete($1, $2, $3, $4) AS a"
)
_CARD_RENDERED = sql_call(
    "job_alert_card_rendered", f"SELECT {_CARD} FROM job_alert_card_rendered($1, $2, $3) AS a"
)
_CARD_GONE = sql_call(
    "job_alert_card_gone", f"SELECT {_CARD} FROM job_alert_card_gone($1, $2) AS a"
)
_REPLY_BEGIN = sql_call(
    "job_alert_reply_begin",
    f"SELECT decision, {_EPISODE} FROM job_alert_reply_begin($1, $2, $3, $4, $5, $6, $7) "
    "AS r(decision, e)",
)
_REPLY_COMPLETE = sql_call(
    "job_alert_reply_complete",
    f"SELECT {_EPISODE} FROM job_alert_reply_complete($1, $2, $3, $4) AS e",
)


@dataclass(frozen=True)
class Reconciled:
    opened: int
    """Episodes opened now (a held job's generation seen for the first time)."""
    changed: int
    """Alerts whose job changed since they were last observed."""


@dataclass(frozen=True)
class CardRecord:
    job_id: UUID
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    desired_version: int
    rendered_version: int
    state: str | None
    card_state: str
    intent_by: UUID | None
    intent_at: datetime | None
    intent_fingerprint: str | None
    intent_version: int | None


@dataclass(frozen=True)
class ReplyRecord:
    job_id: UUID
    retry_generation: int
    state: str
    message_id: int | None
    channel_id: int | None
    intent_by: UUID | None
    intent_at: datetime | None
    intent_fingerprint: str | None


def _card(row: Any) -> CardRecord:
    return CardRecord(
        job_id=row["job_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        desired_version=row["desired_version"],
        rendered_version=row["rendered_version"],
        state=row["state"],
        card_state=row["card_state"],
        intent_by=row["card_intent_by"],
        intent_at=row["card_intent_at"],
        intent_fingerprint=row["card_intent_fingerprint"],
        intent_version=row["card_intent_version"],
    )


def _reply(row: Any) -> ReplyRecord:
    return ReplyRecord(
        job_id=row["job_id"],
        retry_generation=row["retry_generation"],
        state=row["state"],
        message_id=row["reply_message_id"],
        channel_id=row["reply_channel_id"],
        intent_by=row["reply_intent_by"],
        intent_at=row["reply_intent_at"],
        intent_fingerprint=row["reply_intent_fingerprint"],
    )


async def job_alerts_reconcile(session: Session, limit: int = 200) -> Reconciled:
    """Turn held queue state into alert records; call inside the caller's transaction."""
    row = await _RECONCILE.row(session, limit)
    return Reconciled(opened=row["opened"], changed=row["changed"])


async def job_alert_card_begin(
    session: Session,
    job_id: UUID,
    *,
    holder: UUID,
    version: int,
    fingerprint: str,
    guild_id: int | None,
    channel_id: int,
    lease: timedelta,
    replaces: datetime | None = None,
) -> tuple[Decision, CardRecord]:
    row = await _CARD_BEGIN.row(
        session, job_id, holder, version, fingerprint, guild_id, channel_id, lease, replaces
    )
    return cast(Decision, row["decision"]), _card(row)


async def job_alert_card_complete(
    session: Session, job_id: UUID, *, channel_id: int, message_id: int, version: int
) -> CardRecord:
    return _card(await _CARD_COMPLETE.row(session, job_id, channel_id, message_id, version))


async def job_alert_card_rendered(
    session: Session, job_id: UUID, *, message_id: int, version: int
) -> CardRecord:
    return _card(await _CARD_RENDERED.row(session, job_id, message_id, version))


async def job_alert_card_gone(session: Session, job_id: UUID, *, message_id: int) -> CardRecord:
    return _card(await _CARD_GONE.row(session, job_id, message_id))


async def job_alert_reply_begin(
    session: Session,
    job_id: UUID,
    generation: int,
    *,
    holder: UUID,
    fingerprint: str,
    channel_id: int,
    lease: timedelta,
    replaces: datetime | None = None,
) -> tuple[Decision, ReplyRecord]:
    row = await _REPLY_BEGIN.row(
        session, job_id, generation, holder, fingerprint, channel_id, lease, replaces
    )
    return cast(Decision, row["decision"]), _reply(row)


async def job_alert_reply_complete(
    session: Session, job_id: UUID, generation: int, *, channel_id: int, message_id: int
) -> ReplyRecord:
    return _reply(await _REPLY_COMPLETE.row(session, job_id, generation, channel_id, message_id))
