"""Who may recover a job, and from where. The caller's key already passed the jobs:manage scope
guard; the actor must be an operator whatever the key (superusers included), and a request from
a Discord button must come from the alert card of that very job."""

from __future__ import annotations

from uuid import UUID

import asyncpg
from genji_sdk.recovery import OperatorContext

from genji_api.errors import ForbiddenError
from genji_api.recovery.repository import alert_message_id
from genji_api.settings import ApiSettings


def require_operator(settings: ApiSettings, actor_id: int) -> None:
    if actor_id not in settings.queue_operator_ids:
        raise ForbiddenError(f"User {actor_id} is not a queue operator (QUEUE_OPERATOR_IDS).")


async def require_alert_context(
    conn: asyncpg.Connection,
    settings: ApiSettings,
    job_id: UUID,
    context: OperatorContext,
    idempotency_key: str,
) -> None:
    """A Discord request names the guild, channel and message of the job's alert card, and its
    idempotency key is the interaction's id."""
    if context.source != "discord":
        return
    if context.interaction_id is None or str(context.interaction_id) != idempotency_key:
        raise ForbiddenError("A button request's idempotency key is its interaction id.")
    if settings.discord_guild_id is None or context.guild_id != settings.discord_guild_id:
        raise ForbiddenError("The request does not come from the configured guild.")
    if settings.job_alerts_channel_id is None or (
        context.channel_id != settings.job_alerts_channel_id
    ):
        raise ForbiddenError("The request does not come from the job alerts channel.")
    recorded = await alert_message_id(conn, job_id)
    if recorded is None or context.message_id != recorded:
        raise ForbiddenError("The request does not come from this job's alert card.")
