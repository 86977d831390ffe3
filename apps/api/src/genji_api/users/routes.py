"""GET /api/v3/users/{user_id}/rank."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import Parameter

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.http.ids import BIGINT_MAX, BIGINT_SCHEMA
from genji_api.users.models import SkillRankResponse
from genji_api.users.skill import get_rank

UserPath = Annotated[
    int, Parameter(description="The user's id", gt=0, le=BIGINT_MAX, schema_extra=BIGINT_SCHEMA)
]


class UsersController(Controller):
    path = "/users"
    tags = ["users"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @get("/{user_id:int}/rank", opt=scopes.required(scopes.COMPLETIONS_READ))
    async def rank(
        self, user_id: UserPath, database: NamedDependency[Database]
    ) -> SkillRankResponse:
        """The user's current skill rank, which the bot mirrors as a role."""
        return await get_rank(database, user_id)
