"""POST /api/v3/notifications/events."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.effects.context import effect_context
from genji_api.http.tracing import request_trace
from genji_api.notifications import service
from genji_api.notifications.models import NotificationCreatedResponse, NotificationEventRequest


class NotificationsController(Controller):
    path = "/notifications"
    tags = ["notifications"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/events", opt=scopes.required(scopes.NOTIFICATIONS_WRITE))
    async def create_event(
        self,
        data: JSONBody[NotificationEventRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> NotificationCreatedResponse:
        """Store a notification and enqueue its Discord delivery; accepts the job context
        headers."""
        return await service.create_event(
            database, data, effect=effect_context(request), trace=request_trace(request)
        )
