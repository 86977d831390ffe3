"""Create a notification event and its delivery job, once per handler effect."""

from __future__ import annotations

import asyncpg

from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.http.tracing import Trace
from genji_api.notifications.dispatch import create_and_dispatch
from genji_api.notifications.models import NotificationCreatedResponse, NotificationEventRequest
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
