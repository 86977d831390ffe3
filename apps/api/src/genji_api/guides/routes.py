"""POST/GET /api/v3/maps/{code}/guides and DELETE /api/v3/maps/{code}/guides/{user_id}."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.guides import service
from genji_api.guides.models import GuideRequest, GuideResponse
from genji_api.http.ids import BIGINT_MAX, BIGINT_SCHEMA
from genji_api.http.tracing import request_trace

MapCode = Annotated[str, Parameter(description="The map's code", pattern=r"^[A-Z0-9]{4,6}$")]
GuideUserId = Annotated[
    int,
    Parameter(description="The guide's author", gt=0, le=BIGINT_MAX, schema_extra=BIGINT_SCHEMA),
]


class GuidesController(Controller):
    path = "/maps/{code:str}/guides"
    tags = ["guides"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/", opt=scopes.required(scopes.MAPS_WRITE))
    async def submit_guide(
        self,
        code: MapCode,
        data: JSONBody[GuideRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> GuideResponse:
        """Add a user's guide to a map; the same guide again returns it unchanged."""
        return await service.submit_guide(database, code, data, trace=request_trace(request))

    @get("/", opt=scopes.required(scopes.MAPS_READ))
    async def list_guides(
        self, code: MapCode, database: NamedDependency[Database]
    ) -> list[GuideResponse]:
        """Every guide of a map, oldest first."""
        return await service.list_guides(database, code)

    @delete("/{user_id:int}", opt=scopes.required(scopes.MAPS_WRITE))
    async def delete_guide(
        self, code: MapCode, user_id: GuideUserId, database: NamedDependency[Database]
    ) -> None:
        """Remove a user's guide from a map."""
        await service.delete_guide(database, code, user_id)
