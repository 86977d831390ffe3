"""A map's playtest state as the newsfeed handler needs it: is it in playtest, in which thread,
and what the thread's starter message shows."""

from __future__ import annotations

import asyncpg
from genji_sdk.maps import MapPlaytestView

from genji_api.database import Database
from genji_api.errors import NotFoundError
from genji_api.maps.repository import PlaytestMap
from genji_api.playtests.repository import creator_ids
from genji_api.rows import maybe_row_as
from genji_api.users.repository import display_name

__all__ = (
    "MapPlaytestView",
    "playtest_view",
)


async def _view(conn: asyncpg.Connection, code: str) -> MapPlaytestView | None:
    row = maybe_row_as(
        PlaytestMap,
        await conn.fetchrow(
            """
        SELECT m.id, m.code, m.map_name, m.playtesting, m.difficulty,
               p.id AS playtest_id, p.thread_id
        FROM core.maps m
        LEFT JOIN LATERAL (
            SELECT t.id, t.thread_id FROM playtests.meta t WHERE t.map_id = m.id
            ORDER BY t.completed, t.id DESC LIMIT 1
        ) p ON true
        WHERE m.code = $1
        """,
            code,
        ),
    )
    if row is None:
        return None
    return MapPlaytestView(
        code=row.code,
        map_name=row.map_name,
        playtesting=row.playtesting,
        difficulty=row.difficulty,
        creators=[await display_name(conn, user_id) for user_id in await creator_ids(conn, row.id)],
        playtest_id=row.playtest_id,
        thread_id=row.thread_id,
    )


async def playtest_view(database: Database, code: str) -> MapPlaytestView:
    view = await database.read(lambda conn: _view(conn, code))
    if view is None:
        raise NotFoundError(f"No map found with code: {code}")
    return view
