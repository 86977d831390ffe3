"""POST /api/v3/newsfeed and GET /api/v3/newsfeed/{newsfeed_id}."""

from __future__ import annotations

from typing import Annotated, Any

from genji_sdk.newsfeed import NewsfeedPayload
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.effects.context import effect_context
from genji_api.http.ids import INTEGER_MAX
from genji_api.http.tracing import request_trace
from genji_api.newsfeed import service
from genji_api.newsfeed.models import NewsfeedCreatedResponse, NewsfeedEntryResponse

NewsfeedId = Annotated[int, Parameter(description="The entry's id", gt=0, le=INTEGER_MAX)]


class NewsfeedController(Controller):
    path = "/newsfeed"
    tags = ["newsfeed"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/", opt=scopes.required(scopes.NEWSFEED_WRITE))
    async def create_entry(
        self,
        data: JSONBody[NewsfeedPayload],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> NewsfeedCreatedResponse:
        """Store an entry and enqueue its post; accepts the job context headers."""
        return await service.create_entry(
            database, data, effect=effect_context(request), trace=request_trace(request)
        )

    @get("/{newsfeed_id:int}", opt=scopes.required(scopes.NEWSFEED_WRITE))
    async def get_entry(
        self, newsfeed_id: NewsfeedId, database: NamedDependency[Database]
    ) -> NewsfeedEntryResponse:
        """One stored entry, as the newsfeed handler reads it."""
        return await service.get_entry(database, newsfeed_id)
