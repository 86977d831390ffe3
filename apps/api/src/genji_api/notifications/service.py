"""Create a notification event and its delivery job, once per handler effect."""

from __future__ import annotations

import asyncpg
from genji_sdk.payloads import NotificationChannel, NotificationEventType

from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.errors import NotFoundError
from genji_api.http.tracing import Trace
from genji_api.notifications import repository
from genji_api.notifications.dispatch import create_and_dispatch, enabled_channels
from genji_api.notifications.models import (
    DeliveryResultRequest,
    DeliveryResultResponse,
    NotificationCreatedResponse,
    NotificationEventRequest,
    PreferenceResponse,
)
from genji_api.users.repository import lock_user

# The effects handlers request here, and the jobs that may request each.
NOTIFICATION_EFFECTS = rule(
    notification=[
        "api.completion.verification",
        "api.playtest.approve",
        "api.playtest.force_accept",
        "api.playtest.force_deny",
        "api.playtest.reset",
        "api.xp.grant",
    ]
)


async def create_event(
    database: Database,
    request: NotificationEventRequest,
    *,
    effect: EffectContext | None,
    trace: Trace,
) -> NotificationCreatedResponse:
    async def work(conn: asyncpg.Connection) -> NotificationCreatedResponse:
        async def perform() -> NotificationCreatedResponse:
            await lock_user(conn, request.user_id)
            created = await create_and_dispatch(
                conn,
                user_id=request.user_id,
                event_type=request.event_type,
                title=request.title,
                body=request.body,
                discord_message=request.discord_message,
                metadata=request.metadata,
                trace=trace,
            )
            return NotificationCreatedResponse(id=created.event_id, job_status=created.job)

        return await once(
            conn, effect, request, NotificationCreatedResponse, perform, rule=NOTIFICATION_EFFECTS
        )

    return await database.transaction(work)


DELIVERY_EFFECTS = rule(delivery_result=["api.notification.delivery"])


async def record_delivery_result(
    database: Database,
    event_id: int,
    request: DeliveryResultRequest,
    *,
    effect: EffectContext | None,
) -> DeliveryResultResponse:
    """One channel's outcome, upserted on (event_id, channel), once per handler effect."""

    async def work(conn: asyncpg.Connection) -> DeliveryResultResponse:
        async def perform() -> DeliveryResultResponse:
            if not await repository.lock_event(conn, event_id):
                raise NotFoundError(f"No notification event found with id: {event_id}")
            return await repository.record_delivery(
                conn, event_id, request.channel, request.status, request.error_message
            )

        return await once(
            conn, effect, request, DeliveryResultResponse, perform, rule=DELIVERY_EFFECTS
        )

    return await database.transaction(work)


async def preference(
    database: Database, user_id: int, event_type: NotificationEventType
) -> PreferenceResponse:
    async def read(conn: asyncpg.Connection) -> list[NotificationChannel] | None:
        if not await conn.fetchval("SELECT true FROM core.users WHERE id = $1", user_id):
            return None
        return await enabled_channels(conn, user_id, event_type)

    enabled = await database.read(read)
    if enabled is None:
        raise NotFoundError(f"No user found with id: {user_id}")
    every: tuple[NotificationChannel, ...] = ("discord_dm", "discord_ping", "web")
    return PreferenceResponse(
        user_id=user_id, event_type=event_type, channels={c: c in enabled for c in every}
    )
