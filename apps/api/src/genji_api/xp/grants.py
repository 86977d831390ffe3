"""One XP grant, applied at most once per grant key, inside the caller's transaction."""

from __future__ import annotations

import math
from dataclasses import dataclass

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import XpGrantEvent, XpType

from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import JobRequest, enqueue_request
from genji_api.rows import row_as

XP_AMOUNTS: dict[XpType, int] = {
    "Map Submission": 30,
    "Playtest": 35,
    "Guide": 35,
    "Completion": 5,
    "Record": 15,
    "World Record": 50,
}


@dataclass(frozen=True)
class GrantRow:
    """A lootbox.xp_grants row as the announcement reads it."""

    id: int
    user_id: int
    type: XpType
    base_amount: int
    previous_total: int
    new_total: int
    reason: str | None


@dataclass(frozen=True)
class XpGrant:
    grant_id: int
    event: XpGrantEvent
    job: JobStatusResponse
    applied: bool
    """False when the grant key had already been applied; nothing changed this time."""


def xp_event_key(grant_id: int) -> str:
    return f"xp:grant:{grant_id}"


async def apply_xp_grant(
    conn: asyncpg.Connection,
    *,
    user_id: int,
    base_amount: int,
    xp_type: XpType,
    grant_key: str,
    reason: str | None = None,
) -> tuple[XpGrantEvent, bool]:
    """The ledger half of `grant_xp`: the grant's announcement, and whether it was applied now.

    The caller must enqueue the announcement (`xp_grant_job`) in the same transaction.
    """
    await conn.execute(
        "INSERT INTO lootbox.xp (user_id, amount) VALUES ($1, 0) ON CONFLICT (user_id) DO NOTHING",
        user_id,
    )
    previous: int = await conn.fetchval(
        "SELECT amount FROM lootbox.xp WHERE user_id = $1 FOR UPDATE", user_id
    )
    multiplier = await conn.fetchval("SELECT value FROM lootbox.xp_multiplier WHERE id = 1")
    amount = math.floor(base_amount * float(multiplier))
    grant_id = await conn.fetchval(
        """
        INSERT INTO lootbox.xp_grants
            (grant_key, user_id, type, base_amount, amount, previous_total, new_total, reason)
        VALUES ($1, $2, $3, $4, $5::integer, $6::integer, $6::integer + $5::integer, $7)
        ON CONFLICT (grant_key) DO NOTHING
        RETURNING id
        """,
        grant_key,
        user_id,
        xp_type,
        base_amount,
        amount,
        previous,
        reason,
    )
    applied = grant_id is not None
    if applied:
        await conn.execute(
            "UPDATE lootbox.xp SET amount = amount + $2 WHERE user_id = $1", user_id, amount
        )
    row = row_as(
        GrantRow,
        await conn.fetchrow(
            "SELECT id, user_id, type, base_amount, previous_total, new_total, reason "
            "FROM lootbox.xp_grants WHERE grant_key = $1",
            grant_key,
        ),
    )
    event = XpGrantEvent(
        grant_id=row.id,
        user_id=row.user_id,
        amount=row.base_amount,
        type=row.type,
        previous_amount=row.previous_total,
        new_amount=row.new_total,
        reason=row.reason,
    )
    return event, applied


def xp_grant_job(event: XpGrantEvent) -> JobRequest:
    """The api.xp.grant job announcing `event`."""
    return JobRequest(
        payload=event,
        event_key=xp_event_key(event.grant_id),
        entity_key=f"user:{event.user_id}",
    )


async def grant_xp(
    conn: asyncpg.Connection,
    *,
    user_id: int,
    base_amount: int,
    xp_type: XpType,
    grant_key: str,
    reason: str | None = None,
    trace: Trace | None = None,
) -> XpGrant:
    """Add `base_amount` times the multiplier to the user's total and enqueue its announcement.

    `grant_key` is the grant's identity (a guide, a tournament placement, a handler's effect):
    applying the same key again changes nothing and returns the first grant and its job.
    """
    event, applied = await apply_xp_grant(
        conn,
        user_id=user_id,
        base_amount=base_amount,
        xp_type=xp_type,
        grant_key=grant_key,
        reason=reason,
    )
    job = await enqueue_request(conn, xp_grant_job(event), trace=trace)
    return XpGrant(grant_id=event.grant_id, event=event, job=job, applied=applied)
