"""Recompute a user's mastery of one map name (at most once per handler effect)."""

from __future__ import annotations

import asyncpg

from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.mastery import repository as repo
from genji_api.mastery.levels import is_higher, mastery_level
from genji_api.mastery.models import MasteryRequest, MasteryResponse
from genji_api.users.repository import lock_user

# The effects handlers request here, and the jobs that may request each.
MASTERY_EFFECTS = rule(mastery=["api.completion.verification"])


async def recompute(
    database: Database, body: MasteryRequest, *, effect: EffectContext | None
) -> MasteryResponse:
    async def work(conn: asyncpg.Connection) -> MasteryResponse:
        async def perform() -> MasteryResponse:
            await lock_user(conn, body.user_id)
            previous = await repo.lock_level(conn, body.user_id, body.map_name)
            level = mastery_level(await repo.mastered_maps(conn, body.user_id, body.map_name))
            if level is not None and level != previous:
                await repo.store_level(conn, body.user_id, body.map_name, level)
            return MasteryResponse(
                map_name=body.map_name,
                level=level,
                previous_level=previous,
                earned=is_higher(level, previous),
            )

        return await once(conn, effect, body, MasteryResponse, perform, rule=MASTERY_EFFECTS)

    return await database.transaction(work)
