"""POST /lootbox/users/{user_id}/keys, GET /lootbox/users/{user_id}/tier, GET /lootbox/xp/tier."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.effects.context import effect_context
from genji_api.http.ids import BIGINT_MAX, BIGINT_SCHEMA, INTEGER_MAX
from genji_api.lootbox import service
from genji_api.lootbox.models import KeyGrantRequest, KeyGrantResponse, XpTier, XpTierChange

LootboxUserId = Annotated[
    int, Parameter(description="The user", gt=0, le=BIGINT_MAX, schema_extra=BIGINT_SCHEMA)
]
Xp = Annotated[int, Parameter(ge=0, le=INTEGER_MAX)]
_XP = scopes.required(scopes.XP_WRITE)


class LootboxController(Controller):
    path = "/lootbox"
    tags = ["lootbox"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/users/{user_id:int}/keys", opt=_XP)
    async def grant_key(
        self,
        user_id: LootboxUserId,
        data: JSONBody[KeyGrantRequest],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> KeyGrantResponse:
        """Grant one lootbox key (one item of a grant); accepts the job context headers."""
        return await service.grant_key(database, user_id, data, effect=effect_context(request))

    @get("/users/{user_id:int}/tier", opt=_XP)
    async def user_tier(
        self, user_id: LootboxUserId, database: NamedDependency[Database]
    ) -> XpTier:
        """The user's current XP total and rank."""
        return await service.user_tier(database, user_id)

    @get("/xp/tier", opt=_XP)
    async def tier_change(
        self,
        database: NamedDependency[Database],
        old_xp: Xp,
        new_xp: Xp,
    ) -> XpTierChange:
        """How the rank and prestige of `old_xp` and `new_xp` differ."""
        return await service.tier_change(database, old_xp, new_xp)
