"""/api/v3/maps/link-codes: link or unlink an official map and its unofficial counterpart."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, delete, post
from litestar.di import NamedDependency
from litestar.params import JSONBody
from litestar.status_codes import HTTP_200_OK

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.http.tracing import request_trace
from genji_api.map_links import service
from genji_api.map_links.models import (
    LinkCodesRequest,
    LinkCreated,
    LinkRemoved,
    UnlinkCodesRequest,
)


class MapLinksController(Controller):
    path = "/maps/link-codes"
    tags = ["map links"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/", opt=scopes.required(scopes.MAPS_WRITE))
    async def link_codes(
        self,
        data: JSONBody[LinkCodesRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> LinkCreated:
        """Link the codes, first copying the map that does not exist yet."""
        return await service.link_map_codes(database, data, trace=request_trace(request))

    @delete("/", opt=scopes.required(scopes.MAPS_WRITE), status_code=HTTP_200_OK)
    async def unlink_codes(
        self,
        data: JSONBody[UnlinkCodesRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> LinkRemoved:
        """Remove the link between the codes and announce it."""
        return await service.unlink_map_codes(database, data, trace=request_trace(request))
