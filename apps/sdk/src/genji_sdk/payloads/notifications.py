"""Payload of the notification delivery event consumed by the bot."""

from __future__ import annotations

from typing import Any

import msgspec

from genji_sdk.payloads.common import NotificationChannel, NotificationEventType

__all__ = ("NotificationDeliveryEvent",)


class NotificationDeliveryEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.notification.delivery`: deliver a stored notification to its Discord channels."""

    event_id: int
    user_id: int
    event_type: NotificationEventType
    title: str
    body: str
    discord_message: str | None = None
    metadata: dict[str, Any] | None = None
    channels_to_deliver: list[NotificationChannel]
