"""POST /notifications/events, POST /notifications/events/{event_id}/delivery-result and
GET /notifications/users/{user_id}/preferences/{event_type}."""

from __future__ import annotations

from typing import Annotated, Any, get_args

from genji_sdk.payloads import NotificationEventType
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, Parameter
from litestar.status_codes import HTTP_200_OK

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.effects.context import effect_context
from genji_api.errors import BadRequestError
from genji_api.http.ids import BIGINT_MAX, BIGINT_SCHEMA
from genji_api.http.tracing import request_trace
from genji_api.notifications import service
from genji_api.notifications.models import (
    DeliveryResultRequest,
    DeliveryResultResponse,
    NotificationCreatedResponse,
    NotificationEventRequest,
    PreferenceResponse,
)

_WRITE = scopes.required(scopes.NOTIFICATIONS_WRITE)
EventId = Annotated[
    int,
    Parameter(
        description="The notification event", gt=0, le=BIGINT_MAX, schema_extra=BIGINT_SCHEMA
    ),
]
PreferenceUserId = Annotated[
    int, Parameter(description="The user", gt=0, le=BIGINT_MAX, schema_extra=BIGINT_SCHEMA)
]
_EVENT_TYPES = frozenset(get_args(NotificationEventType))


def _event_type(value: str) -> NotificationEventType:
    if value not in _EVENT_TYPES:
        raise BadRequestError(f"Unknown notification event type: {value!r}")
    return value  # type: ignore[return-value]


class NotificationsController(Controller):
    path = "/notifications"
    tags = ["notifications"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/events", opt=_WRITE)
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

    @post("/events/{event_id:int}/delivery-result", opt=_WRITE, status_code=HTTP_200_OK)
    async def delivery_result(
        self,
        event_id: EventId,
        data: JSONBody[DeliveryResultRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> DeliveryResultResponse:
        """Record one channel's delivery outcome; accepts the job context headers."""
        return await service.record_delivery_result(
            database, event_id, data, effect=effect_context(request)
        )

    @get("/users/{user_id:int}/preferences/{event_type:str}", opt=_WRITE)
    async def preference(
        self,
        user_id: PreferenceUserId,
        event_type: FromPath[str],
        database: NamedDependency[Database],
    ) -> PreferenceResponse:
        """Whether each channel is on for this user and event type (explicit or default)."""
        return await service.preference(database, user_id, _event_type(event_type))
