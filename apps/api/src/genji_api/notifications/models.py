"""Notification event request and response bodies."""

from __future__ import annotations

from typing import Any

from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import NotificationEventType

from genji_api.http.ids import UserId
from genji_api.http.types import RequestBody, ResponseBody


class NotificationEventRequest(RequestBody, frozen=True, kw_only=True):
    user_id: UserId
    event_type: NotificationEventType
    title: str
    body: str
    discord_message: str | None = None
    metadata: dict[str, Any] | None = None


class NotificationCreatedResponse(ResponseBody, frozen=True, kw_only=True):
    id: int
    job_status: JobStatusResponse | None
    """None when no Discord channel is enabled or the user is not a real Discord account."""
