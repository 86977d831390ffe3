"""POST /api/v3/maps/mastery."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, post
from litestar.di import NamedDependency
from litestar.params import JSONBody
from litestar.status_codes import HTTP_200_OK

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.effects.context import effect_context
from genji_api.mastery import service
from genji_api.mastery.models import MasteryRequest, MasteryResponse


class MasteryController(Controller):
    path = "/maps/mastery"
    tags = ["mastery"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/", opt=scopes.required(scopes.MAPS_WRITE), status_code=HTTP_200_OK)
    async def recompute(
        self,
        data: JSONBody[MasteryRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> MasteryResponse:
        """Recompute the user's mastery of a map name; accepts the job context headers."""
        return await service.recompute(database, data, effect=effect_context(request))
