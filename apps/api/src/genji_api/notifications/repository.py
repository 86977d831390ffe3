"""SQL on notifications.events and notifications.delivery_log."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from genji_api.notifications.models import DeliveryResultResponse
from genji_api.rows import row_as


@dataclass(frozen=True)
class ChannelPreference:
    channel: str
    enabled: bool


async def lock_event(conn: asyncpg.Connection, event_id: int) -> bool:
    """Whether the event exists; a key-share lock keeps it for the transaction."""
    found: bool | None = await conn.fetchval(
        "SELECT true FROM notifications.events WHERE id = $1 FOR KEY SHARE", event_id
    )
    return bool(found)


async def record_delivery(
    conn: asyncpg.Connection, event_id: int, channel: str, status: str, error: str | None
) -> DeliveryResultResponse:
    """Upsert the channel's delivery outcome; a delivered channel stays delivered."""
    row = await conn.fetchrow(
        """
        INSERT INTO notifications.delivery_log AS d
            (event_id, channel, status, attempted_at, delivered_at, error_message)
        VALUES ($1, $2, $3, now(), CASE WHEN $3 = 'delivered' THEN now() END, $4)
        ON CONFLICT (event_id, channel) DO UPDATE
        SET status = excluded.status, attempted_at = excluded.attempted_at,
            delivered_at = coalesce(d.delivered_at, excluded.delivered_at),
            error_message = excluded.error_message
        WHERE d.status <> 'delivered'
        RETURNING event_id, channel, status, attempted_at, delivered_at, error_message
        """,
        event_id,
        channel,
        status,
        error,
    )
    if row is None:
        row = await conn.fetchrow(
            "SELECT event_id, channel, status, attempted_at, delivered_at, error_message "
            "FROM notifications.delivery_log WHERE event_id = $1 AND channel = $2",
            event_id,
            channel,
        )
    return row_as(DeliveryResultResponse, row)
