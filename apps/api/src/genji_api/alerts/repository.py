"""Reads of the alert tables: the alerts with delivery work, and their jobs' effect progress."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import asyncpg
from genji_sdk.alerts import EffectState
from genji_sdk.recovery import RecoveryState


@dataclass(frozen=True)
class AlertRow:
    """An alert with delivery work, its job, and the current generation's episode if any."""

    job_id: UUID
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    desired_version: int
    rendered_version: int
    state: RecoveryState
    event_name: str
    retry_generation: int
    handler_failures: int
    error_code: str | None
    error_msg: str | None
    held_at: datetime | None
    episode_generation: int | None
    episode_failed_at: datetime | None
    episode_state: str | None
    reply_message_id: int | None


@dataclass(frozen=True)
class ReceiptRow:
    job_id: UUID
    effect_key: str
    completed: bool


@dataclass(frozen=True)
class BindingRow:
    job_id: UUID
    effect_key: str
    destination: str
    state: EffectState


# An alert has work when its card was never sent (while the job still matters), its card shows
# an older version, or its job's current generation failed and that episode is not notified.
_WORK = """
SELECT a.job_id, a.guild_id, a.channel_id, a.message_id, a.desired_version, a.rendered_version,
       coalesce(a.state, 'needs_inspection') AS state,
       j.action AS event_name, j.retry_generation, j.handler_failures, j.error_code, j.error_msg,
       j.held_at,
       e.retry_generation AS episode_generation, e.failed_at AS episode_failed_at,
       e.state AS episode_state, e.reply_message_id
FROM job_alerts a
JOIN public.jobs j ON j.id = a.job_id
LEFT JOIN job_alert_episodes e
       ON e.job_id = a.job_id AND e.retry_generation = j.retry_generation
WHERE (a.message_id IS NULL AND a.state NOT IN ('succeeded', 'discarded'))
   OR (a.message_id IS NOT NULL AND a.rendered_version < a.desired_version)
   OR (a.state = 'held' AND e.state IS DISTINCT FROM 'notified' AND e.job_id IS NOT NULL)
ORDER BY a.created_at, a.job_id
LIMIT $1
"""

_RECEIPTS = """
SELECT r.job_id, r.effect_key, r.completed_at IS NOT NULL AS completed
FROM effect_receipts r WHERE r.job_id = ANY($1::uuid[])
ORDER BY r.job_id, r.created_at, r.effect_key
"""

_BINDINGS = """
SELECT b.job_id, b.effect_key, b.destination, b.state
FROM effect_bindings b WHERE b.job_id = ANY($1::uuid[])
ORDER BY b.job_id, b.created_at, b.effect_key, b.destination
"""


async def alerts_with_work(conn: asyncpg.Connection, limit: int) -> list[AlertRow]:
    return [AlertRow(**row) for row in await conn.fetch(_WORK, limit)]


async def receipts_of(conn: asyncpg.Connection, job_ids: list[UUID]) -> list[ReceiptRow]:
    return [ReceiptRow(**row) for row in await conn.fetch(_RECEIPTS, job_ids)]


async def bindings_of(conn: asyncpg.Connection, job_ids: list[UUID]) -> list[BindingRow]:
    return [BindingRow(**row) for row in await conn.fetch(_BINDINGS, job_ids)]
