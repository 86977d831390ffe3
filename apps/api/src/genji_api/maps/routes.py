"""Map routes under /api/v3/maps."""

from __future__ import annotations

from typing import Any

from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import OverwatchCode
from litestar import Controller, Request, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.effects.context import effect_context
from genji_api.errors import BadRequestError
from genji_api.http.tracing import request_trace
from genji_api.maps import service
from genji_api.maps.models import (
    ArchiveRequest,
    ArchiveResponse,
    MapCreateRequest,
    MapCreateResponse,
    MapVisibilityRequest,
    MapVisibilityResponse,
)
from genji_api.settings import ApiSettings

AnyRequest = Request[Any, Any, Any]


def _code(code: str) -> OverwatchCode:
    if not (4 <= len(code) <= 6 and code.isascii() and code.isalnum() and code.isupper()):
        raise BadRequestError(f"Invalid map code: {code!r}")
    return code


class MapsController(Controller):
    path = "/maps"
    tags = ["maps"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/", opt=scopes.required(scopes.MAPS_WRITE), status_code=201)
    async def create_map(
        self,
        data: JSONBody[MapCreateRequest],
        request: AnyRequest,
        database: NamedDependency[Database],
    ) -> MapCreateResponse:
        """Create a map; one that enters playtesting comes with its playtest-create job."""
        created = await service.submit_map(database, data, trace=request_trace(request))
        return MapCreateResponse(id=created.map_id, code=created.code, job_status=created.job)

    @post("/{code:str}/playtest", opt=scopes.required(scopes.MAPS_WRITE), status_code=202)
    async def send_to_playtest(
        self, code: FromPath[str], request: AnyRequest, database: NamedDependency[Database]
    ) -> JobStatusResponse:
        """Send an existing map to playtest; its completions so far become legacy."""
        return await service.send_to_playtest(database, _code(code), trace=request_trace(request))

    @patch("/{code:str}", opt=scopes.required(scopes.MAPS_WRITE))
    async def set_visibility(
        self,
        code: FromPath[str],
        data: JSONBody[MapVisibilityRequest],
        request: AnyRequest,
        database: NamedDependency[Database],
    ) -> MapVisibilityResponse:
        """Show or hide a map; accepts the job context headers."""
        return await service.set_visibility(
            database, _code(code), data, effect=effect_context(request)
        )

    @post("/archive", opt=scopes.required(scopes.MAPS_ADMIN), status_code=200)
    async def archive(
        self,
        data: JSONBody[ArchiveRequest],
        request: AnyRequest,
        database: NamedDependency[Database],
        settings: NamedDependency[ApiSettings],
    ) -> ArchiveResponse:
        """Archive or unarchive maps; archiving closes their open playtests as denied."""
        return await service.archive(
            database, data, bot_user_id=settings.bot_user_id, trace=request_trace(request)
        )
