"""Operator alerts: the poll that reconciles held jobs into alert records, and the card and reply
bindings the bot records around each Discord send. Each call is one short transaction."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TypeVar
from uuid import UUID

import asyncpg
from genji_queue import alerts as records
from genji_queue.errors import (
    EffectFingerprintMismatchError,
    InvalidJobRequestError,
    JobNotFoundError,
)
from genji_sdk.alerts import (
    AlertCard,
    AlertEffect,
    AlertEpisode,
    AlertWork,
    CardBegin,
    CardBinding,
    CardComplete,
    CardGone,
    CardRendered,
    ReplyBegin,
    ReplyBinding,
    ReplyComplete,
)
from genji_worker.errors import redact

from genji_api.alerts import repository
from genji_api.alerts.repository import AlertRow, BindingRow, ReceiptRow
from genji_api.alerts.sentry_link import sentry_link
from genji_api.database import Database
from genji_api.errors import BadRequestError, ConflictError, NotFoundError
from genji_api.settings import ApiSettings

T = TypeVar("T")

WORK_LIMIT = 25
ERROR_LIMIT = 300
_SPACES = re.compile(r"\s+")


def concise_error(code: str | None, message: str | None) -> str | None:
    """One line for the card: bounded, secrets redacted, and unable to mention anyone."""
    if code is None and not message:
        return None
    text = f"{code or 'Error'}: {message}" if message else str(code)
    text = _SPACES.sub(" ", redact(text)).strip()
    # A zero-width space after every @ defeats user, role and @everyone mentions.
    text = text.replace("@", "@\u200b")
    return text if len(text) <= ERROR_LIMIT else text[: ERROR_LIMIT - 1] + "\u2026"


def _effects(
    receipts: list[ReceiptRow], bindings: list[BindingRow]
) -> tuple[list[AlertEffect], list[AlertEffect]]:
    done: list[AlertEffect] = []
    pending: list[AlertEffect] = []
    for receipt in receipts:
        effect = AlertEffect(
            effect_key=receipt.effect_key,
            destination=None,
            state="completed" if receipt.completed else "pending",
        )
        (done if receipt.completed else pending).append(effect)
    for binding in bindings:
        effect = AlertEffect(
            effect_key=binding.effect_key,
            destination=binding.destination,
            state=binding.state,
        )
        (done if binding.state in ("completed", "skipped") else pending).append(effect)
    return done, pending


def _card(
    row: AlertRow, receipts: list[ReceiptRow], bindings: list[BindingRow], settings: ApiSettings
) -> AlertCard:
    done, pending = _effects(receipts, bindings)
    uncertain = any(binding.state == "uncertain" for binding in bindings)
    job_id: UUID = row.job_id
    episode = None
    if (
        row.state == "held"
        and row.episode_generation is not None
        and row.episode_failed_at is not None  # NOT NULL whenever the episode joined
        and row.episode_state != "notified"
    ):
        episode = AlertEpisode(
            retry_generation=row.episode_generation,
            failed_at=row.episode_failed_at,
            notified=False,
            reply_message_id=None,
        )
    return AlertCard(
        job_id=job_id,
        event_name=row.event_name,
        retry_generation=row.retry_generation,
        state=row.state,
        error=concise_error(row.error_code, row.error_msg),
        attempts=row.handler_failures,
        failed_at=row.held_at or row.episode_failed_at,
        completed_effects=done,
        pending_effects=pending,
        retry_enabled=row.state == "held" and not uncertain,
        sentry_url=sentry_link(settings.sentry_issue_url_template, job_id),
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        desired_version=row.desired_version,
        rendered_version=row.rendered_version,
        episode=episode,
    )


async def poll(database: Database, settings: ApiSettings) -> AlertWork:
    """Reconcile held jobs into alert records and return what the bot must deliver."""

    async def work(conn: asyncpg.Connection) -> AlertWork:
        await records.job_alerts_reconcile(conn)
        rows = await repository.alerts_with_work(conn, WORK_LIMIT)
        job_ids = [row.job_id for row in rows]
        receipts: defaultdict[UUID, list[ReceiptRow]] = defaultdict(list)
        bindings: defaultdict[UUID, list[BindingRow]] = defaultdict(list)
        for receipt in await repository.receipts_of(conn, job_ids):
            receipts[receipt.job_id].append(receipt)
        for binding in await repository.bindings_of(conn, job_ids):
            bindings[binding.job_id].append(binding)
        return AlertWork(
            alerts=[
                _card(row, receipts[row.job_id], bindings[row.job_id], settings) for row in rows
            ]
        )

    return await database.transaction(work)


def _card_binding(
    record: records.CardRecord, decision: records.Decision | None = None
) -> CardBinding:
    return CardBinding(
        decision=decision,
        channel_id=record.channel_id,
        message_id=record.message_id,
        rendered_version=record.rendered_version,
        intent_at=record.intent_at,
        intent_fingerprint=record.intent_fingerprint,
        intent_version=record.intent_version,
    )


def _reply_binding(
    record: records.ReplyRecord, decision: records.Decision | None = None
) -> ReplyBinding:
    return ReplyBinding(
        decision=decision,
        retry_generation=record.retry_generation,
        notified=record.state == "notified",
        channel_id=record.channel_id,
        message_id=record.message_id,
        intent_at=record.intent_at,
        intent_fingerprint=record.intent_fingerprint,
    )


async def _run(database: Database, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
    async def transaction(conn: asyncpg.Connection) -> T:
        try:
            return await work(conn)
        except JobNotFoundError as error:
            raise NotFoundError("Alert not found.", extra={"reason": str(error)}) from None
        except EffectFingerprintMismatchError as error:
            raise ConflictError(str(error).split("\n")[0]) from None
        except InvalidJobRequestError as error:
            raise BadRequestError(str(error).split("\n")[0]) from None

    return await database.transaction(transaction)


async def begin_card(database: Database, job_id: UUID, body: CardBegin) -> CardBinding:
    async def work(conn: asyncpg.Connection) -> CardBinding:
        decision, record = await records.job_alert_card_begin(
            conn,
            job_id,
            holder=body.holder,
            version=body.version,
            fingerprint=body.fingerprint,
            guild_id=body.guild_id,
            channel_id=body.channel_id,
            lease=timedelta(seconds=body.lease_seconds),
            replaces=body.replaces,
        )
        return _card_binding(record, decision)

    return await _run(database, work)


async def complete_card(database: Database, job_id: UUID, body: CardComplete) -> CardBinding:
    async def work(conn: asyncpg.Connection) -> CardBinding:
        record = await records.job_alert_card_complete(
            conn,
            job_id,
            channel_id=body.channel_id,
            message_id=body.message_id,
            version=body.version,
        )
        return _card_binding(record)

    return await _run(database, work)


async def card_rendered(database: Database, job_id: UUID, body: CardRendered) -> CardBinding:
    async def work(conn: asyncpg.Connection) -> CardBinding:
        record = await records.job_alert_card_rendered(
            conn, job_id, message_id=body.message_id, version=body.version
        )
        return _card_binding(record)

    return await _run(database, work)


async def card_gone(database: Database, job_id: UUID, body: CardGone) -> CardBinding:
    async def work(conn: asyncpg.Connection) -> CardBinding:
        record = await records.job_alert_card_gone(conn, job_id, message_id=body.message_id)
        return _card_binding(record)

    return await _run(database, work)


async def begin_reply(
    database: Database, job_id: UUID, generation: int, body: ReplyBegin
) -> ReplyBinding:
    async def work(conn: asyncpg.Connection) -> ReplyBinding:
        decision, record = await records.job_alert_reply_begin(
            conn,
            job_id,
            generation,
            holder=body.holder,
            fingerprint=body.fingerprint,
            channel_id=body.channel_id,
            lease=timedelta(seconds=body.lease_seconds),
            replaces=body.replaces,
        )
        return _reply_binding(record, decision)

    return await _run(database, work)


async def complete_reply(
    database: Database, job_id: UUID, generation: int, body: ReplyComplete
) -> ReplyBinding:
    async def work(conn: asyncpg.Connection) -> ReplyBinding:
        record = await records.job_alert_reply_complete(
            conn, job_id, generation, channel_id=body.channel_id, message_id=body.message_id
        )
        return _reply_binding(record)

    return await _run(database, work)
