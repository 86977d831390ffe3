"""Queue consumers of the notifications feature: api.notification.delivery.

Each destination of a notification is delivered and recorded on its own:
- discord_dm: a direct message (`delivery:discord_dm`); a closed DM (Forbidden) is a permanent
  failure of that destination only, never retried;
- discord_ping: only quest_complete is posted here, in the xp channel
  (`delivery:discord_ping`); other event types ping where they happen and are skipped.
The outcome of each (delivered, skipped, failed) is recorded through the API
(`delivery-result:<channel>`, notifications.delivery_log) and in the send's binding, so a replay
never resends a delivered destination and keeps a failure's classification. Temporary failures
(Discord or the API unreachable, rate limits) of one destination do not stop the others; the
job is then retried for what is left.
"""

from __future__ import annotations

import logging

from genji_sdk.failures import DependencyUnavailable, RateLimited
from genji_sdk.notifications import MIN_DISCORD_ID
from genji_sdk.payloads import NotificationChannel, NotificationDeliveryEvent

from genji_bot.consumers import JobRun, queue_consumer
from genji_bot.effects.port import (
    NO_MENTIONS,
    Channel,
    DirectMessage,
    Forbidden,
    Mentions,
    Outgoing,
)

log = logging.getLogger("genji.bot.notifications")

# Stable across replays: a recorded failure is compared with the request that recorded it.
REFUSED = "Discord refused the direct message"
PINGED_ELSEWHERE = "pings are done at the trigger site"


def _text(event: NotificationDeliveryEvent) -> str:
    return event.discord_message or event.body


async def _record(
    job: JobRun,
    event: NotificationDeliveryEvent,
    channel: NotificationChannel,
    status: str,
    error: str | None = None,
) -> None:
    await job.api.effect(
        "POST",
        f"/notifications/events/{event.event_id}/delivery-result",
        f"delivery-result:{channel}",
        json={"channel": channel, "status": status, "error_message": error},
    )


async def _direct_message(job: JobRun, event: NotificationDeliveryEvent) -> None:
    try:
        await job.send(
            "delivery:discord_dm",
            DirectMessage(event.user_id),
            Outgoing(content=_text(event), mentions=NO_MENTIONS),
        )
    except Forbidden:
        log.info("notification %s: user %s does not accept DMs", event.event_id, event.user_id)
        await _record(job, event, "discord_dm", "failed", REFUSED)
        return
    await _record(job, event, "discord_dm", "delivered")


async def _ping(job: JobRun, event: NotificationDeliveryEvent) -> None:
    target = Channel(job.settings.channels.xp)
    if event.event_type != "quest_complete":
        await job.skip("delivery:discord_ping", target, PINGED_ELSEWHERE)
        await _record(job, event, "discord_ping", "skipped")
        return
    message = Outgoing(
        content=f"<@{event.user_id}> {_text(event)}", mentions=Mentions(users=(event.user_id,))
    )
    await job.send("delivery:discord_ping", target, message)
    await _record(job, event, "discord_ping", "delivered")


@queue_consumer(NotificationDeliveryEvent)
async def deliver_notification(event: NotificationDeliveryEvent, job: JobRun) -> None:
    if event.user_id < MIN_DISCORD_ID:
        log.info("notification %s: user %s is not a Discord account", event.event_id, event.user_id)
        return
    pending: list[DependencyUnavailable | RateLimited] = []
    for channel in event.channels_to_deliver:
        try:
            if channel == "discord_dm":
                await _direct_message(job, event)
            elif channel == "discord_ping":
                await _ping(job, event)
        except (DependencyUnavailable, RateLimited) as error:
            log.info("notification %s: %s not delivered yet (%s)", event.event_id, channel, error)
            pending.append(error)
    if pending:
        raise pending[0]
