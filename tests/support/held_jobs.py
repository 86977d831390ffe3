"""Held jobs for recovery tests, made through the queue's own functions: claimed, with a
completed receipt and send binding where asked, then held by the failure schedule."""

from __future__ import annotations

import json
from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
from genji_queue.alerts import job_alert_card_begin, job_alert_card_complete, job_alerts_reconcile
from genji_queue.bindings import (
    effect_binding_begin,
    effect_binding_complete,
    effect_binding_settle,
)
from genji_queue.receipts import effect_receipt_begin, effect_receipt_complete
from genji_sdk import ClaimToken
from genji_sdk.recovery import OperatorContext, RetryRequest

from .queue_helpers import claim_next, enqueue_xp

OPERATOR = 1_098_765_432_109_876_543
ERROR = json.dumps({"exception_type": "ApiError", "exception_message": "500 from the API"})
SEND = ("message:xp", "channel:5")
UNCERTAIN = ("message:rank_up", "channel:5")


async def claim(conn: asyncpg.Connection) -> ClaimToken:
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None and claimed.queue_manager_id is not None
    return ClaimToken(claimed.id, claimed.queue_manager_id, claimed.updated)


async def fail_held(conn: asyncpg.Connection, token: ClaimToken) -> None:
    outcome = await conn.fetchval(
        "SELECT queue_fail($1, $2, $3, '{}'::interval[], $4::jsonb)",
        token.queue_job_id,
        token.queue_manager_id,
        token.claimed_at,
        ERROR,
    )
    assert outcome == "held"


async def held_job(
    conn: asyncpg.Connection,
    key: str = "xp:held",
    *,
    user_id: int = 7,
    effects: bool = True,
    uncertain: bool = False,
) -> UUID:
    job_id = (await enqueue_xp(conn, key, user_id=user_id)).id
    token = await claim(conn)
    if effects:
        async with conn.transaction():
            receipt = await effect_receipt_begin(conn, token, job_id, "xp:grant", "user:7:+5")
            assert receipt.fresh
            await effect_receipt_complete(conn, job_id, "xp:grant", {"total": 5})
        await effect_binding_begin(conn, token, job_id, *SEND, "fingerprint-1")
        await effect_binding_complete(conn, job_id, *SEND, channel_id=5, message_id=55)
    if uncertain:
        await effect_binding_begin(conn, token, job_id, *UNCERTAIN, "fingerprint-2")
        await effect_binding_settle(conn, token, job_id, *UNCERTAIN, "uncertain")
    await fail_held(conn, token)
    return job_id


def retry_request(key: str = "retry-1", generation: int = 0) -> RetryRequest:
    return RetryRequest(
        expected_generation=generation,
        idempotency_key=key,
        actor_id=OPERATOR,
        context=OperatorContext(source="cli"),
    )


async def job_row(conn: asyncpg.Connection, job_id: UUID) -> asyncpg.Record:
    row = await conn.fetchrow("SELECT * FROM jobs WHERE id = $1", job_id)
    assert row is not None
    return row


async def bind_alert_card(
    conn: asyncpg.Connection, job_id: UUID, guild_id: int, channel_id: int, message_id: int
) -> None:
    """The held job's alert card as the alert supervisor records it: reconciled, its intent,
    then the id of the message sent."""
    async with conn.transaction():
        await job_alerts_reconcile(conn)
        decision, _ = await job_alert_card_begin(
            conn,
            job_id,
            holder=uuid4(),
            version=1,
            fingerprint="card-fingerprint",
            guild_id=guild_id,
            channel_id=channel_id,
            lease=timedelta(minutes=1),
        )
        assert decision == "fresh"
        await job_alert_card_complete(
            conn, job_id, channel_id=channel_id, message_id=message_id, version=1
        )
