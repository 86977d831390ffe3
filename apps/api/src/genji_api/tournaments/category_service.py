"""A tournament category and the current state of its champion, read in one snapshot."""

from __future__ import annotations

import asyncpg

from genji_api.database import Database
from genji_api.errors import NotFoundError
from genji_api.tournaments import champions
from genji_api.tournaments.category_models import TournamentCategoryResponse


async def get_category(database: Database, category_id: int) -> TournamentCategoryResponse:
    async def work(conn: asyncpg.Connection) -> TournamentCategoryResponse:
        row = await champions.category(conn, category_id)
        if row is None:
            raise NotFoundError("Category not found.")
        state = await champions.champion_state(conn, category_id)
        return TournamentCategoryResponse(
            id=row.id,
            name=row.name,
            champion_role_id=row.champion_role_id,
            is_active=row.is_active,
            champion_user_id=state.user_id,
            champion_cycle_id=state.cycle_id,
            former_champion_user_ids=state.former,
        )

    return await database.transaction(work)
