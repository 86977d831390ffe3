"""Notification event request and response bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from genji_sdk.notifications import NotificationCreatedResponse, PreferenceResponse
from genji_sdk.payloads import NotificationChannel, NotificationEventType

from genji_api.http.ids import UserId
from genji_api.http.types import RequestBody, ResponseBody

__all__ = (
    "DeliveryResultRequest",
    "DeliveryResultResponse",
    "NotificationCreatedResponse",
    "NotificationEventRequest",
    "PreferenceResponse",
)


class NotificationEventRequest(RequestBody, frozen=True, kw_only=True):
    user_id: UserId
    event_type: NotificationEventType
    title: str
    body: str
    discord_message: str | None = None
    metadata: dict[str, Any] | None = None


class DeliveryResultRequest(RequestBody, frozen=True, kw_only=True):
    channel: NotificationChannel
    status: Literal["delivered", "skipped", "failed"]
    error_message: Annotated[str, msgspec.Meta(max_length=500)] | None = None


class DeliveryResultResponse(ResponseBody, frozen=True, kw_only=True):
    event_id: int
    channel: NotificationChannel
    status: Literal["pending", "delivered", "skipped", "failed"]
    attempted_at: datetime | None
    delivered_at: datetime | None
    error_message: str | None
