"""Store a notification and enqueue its Discord delivery, inside the caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.notifications import DEFAULT_CHANNELS, DISCORD_CHANNELS, MIN_DISCORD_ID
from genji_sdk.payloads import NotificationChannel, NotificationDeliveryEvent, NotificationEventType

from genji_api.http.tracing import Trace
from genji_api.notifications.repository import ChannelPreference
from genji_api.queue.enqueue import enqueue_job
from genji_api.rows import rows_as


@dataclass(frozen=True)
class NotificationCreated:
    event_id: int
    job: JobStatusResponse | None
    """None when no Discord channel is enabled or the user is not a real Discord account."""


async def enabled_channels(
    conn: asyncpg.Connection, user_id: int, event_type: NotificationEventType
) -> list[NotificationChannel]:
    """The user's explicit preferences, falling back to the event type's defaults."""
    rows = rows_as(
        ChannelPreference,
        await conn.fetch(
            "SELECT channel, enabled FROM notifications.preferences "
            "WHERE user_id = $1 AND event_type = $2",
            user_id,
            event_type,
        ),
    )
    explicit = {row.channel: row.enabled for row in rows}
    defaults = DEFAULT_CHANNELS.get(event_type, ())
    channels: list[NotificationChannel] = ["discord_dm", "discord_ping", "web"]
    return [c for c in channels if explicit.get(c, c in defaults)]


async def create_and_dispatch(
    conn: asyncpg.Connection,
    *,
    user_id: int,
    event_type: NotificationEventType,
    title: str,
    body: str,
    discord_message: str | None = None,
    metadata: dict[str, Any] | None = None,
    trace: Trace | None = None,
) -> NotificationCreated:
    event_id: int = await conn.fetchval(
        "INSERT INTO notifications.events (user_id, event_type, title, body, metadata) "
        "VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING id",
        user_id,
        event_type,
        title,
        body,
        metadata,
    )
    discord = [
        c for c in await enabled_channels(conn, user_id, event_type) if c in DISCORD_CHANNELS
    ]
    if not discord or user_id < MIN_DISCORD_ID:
        return NotificationCreated(event_id=event_id, job=None)
    job = await enqueue_job(
        conn,
        payload=NotificationDeliveryEvent(
            event_id=event_id,
            user_id=user_id,
            event_type=event_type,
            title=title,
            body=body,
            discord_message=discord_message,
            metadata=metadata,
            channels_to_deliver=discord,
        ),
        event_key=f"notification:delivery:{event_id}",
        entity_key=None,
        trace=trace,
    )
    return NotificationCreated(event_id=event_id, job=job)
