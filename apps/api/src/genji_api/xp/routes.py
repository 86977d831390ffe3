"""POST /api/v3/lootbox/users/{user_id}/xp."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.effects.context import effect_context
from genji_api.http.ids import BIGINT_MAX, BIGINT_SCHEMA
from genji_api.http.tracing import request_trace
from genji_api.xp import service
from genji_api.xp.models import XpGrantRequest, XpGrantResponse

XpUserId = Annotated[
    int,
    Parameter(description="Who receives the XP", gt=0, le=BIGINT_MAX, schema_extra=BIGINT_SCHEMA),
]


class XpController(Controller):
    path = "/lootbox/users"
    tags = ["xp"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/{user_id:int}/xp", opt=scopes.required(scopes.XP_WRITE))
    async def grant_xp(
        self,
        user_id: XpUserId,
        data: JSONBody[XpGrantRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> XpGrantResponse:
        """Grant XP and enqueue its announcement; accepts the job context headers."""
        return await service.grant(
            database, user_id, data, effect=effect_context(request), trace=request_trace(request)
        )
