"""Map routes under /api/v3/maps."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.http.tracing import request_trace
from genji_api.maps import service
from genji_api.maps.models import MapCreateRequest, MapCreateResponse


class MapsController(Controller):
    path = "/maps"
    tags = ["maps"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/", opt=scopes.required(scopes.MAPS_WRITE), status_code=201)
    async def create_map(
        self,
        data: JSONBody[MapCreateRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> MapCreateResponse:
        """Create a map; one that enters playtesting comes with its playtest-create job."""
        created = await service.submit_map(database, data, trace=request_trace(request))
        return MapCreateResponse(id=created.map_id, code=created.code, job_status=created.job)
