"""/api/v3/maps/map-edits: create, resolve, read, and the bot's moderation message id."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, get, patch, post, put
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody
from litestar.status_codes import HTTP_204_NO_CONTENT

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.effects.context import effect_context
from genji_api.http.tracing import request_trace
from genji_api.map_edits import service
from genji_api.map_edits.models import (
    MapEditCreated,
    MapEditCreateRequest,
    MapEditMessageRequest,
    MapEditResolveRequest,
    MapEditResponse,
)
from genji_api.settings import ApiSettings


class MapEditsController(Controller):
    path = "/maps/map-edits"
    tags = ["map edits"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/", opt=scopes.required(scopes.MAPS_WRITE))
    async def create_edit_request(
        self,
        data: JSONBody[MapEditCreateRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> MapEditCreated:
        """Propose changes to a map; at most one request per map may be pending."""
        return await service.create_edit_request(database, data, trace=request_trace(request))

    @put(
        "/{edit_id:int}/resolve",
        opt=scopes.required(scopes.MAPS_ADMIN),
        status_code=HTTP_204_NO_CONTENT,
    )
    async def resolve_edit_request(
        self,
        edit_id: FromPath[int],
        data: JSONBody[MapEditResolveRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
        settings: NamedDependency[ApiSettings],
    ) -> None:
        """Accept or reject a pending edit request; accepting applies its changes."""
        await service.resolve_edit_request(
            database,
            edit_id,
            data,
            bot_user_id=settings.bot_user_id,
            trace=request_trace(request),
        )

    @patch("/{edit_id:int}/message", opt=scopes.required(scopes.MAPS_WRITE))
    async def set_message(
        self,
        edit_id: FromPath[int],
        data: JSONBody[MapEditMessageRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> MapEditResponse:
        """Record the verification-queue message that shows the request to moderators."""
        return await service.set_message(database, edit_id, data, effect_context(request))

    @get("/{edit_id:int}", opt=scopes.required(scopes.MAPS_READ))
    async def get_edit_request(
        self, edit_id: FromPath[int], database: NamedDependency[Database]
    ) -> MapEditResponse:
        """One edit request."""
        return await service.get_edit_request(database, edit_id)
