"""A copy of a map under its counterpart's code, made by map creation in the caller's transaction.

An 'In Progress' copy gets its playtest and api.playtest.create job from create_map, an
'Approved' visible one its new_map newsfeed entry.
"""

from __future__ import annotations

from typing import Literal

import asyncpg

from genji_api.http.tracing import Trace
from genji_api.map_links.repository import LinkableMap, SourceCreator
from genji_api.maps.creation import MapCreated, create_map
from genji_api.maps.models import MapCreateRequest, MapCreatorRequest
from genji_api.rows import rows_as


async def clone_map(
    conn: asyncpg.Connection,
    source: LinkableMap,
    *,
    code: str,
    official: bool,
    hidden: bool,
    playtesting: Literal["Approved", "In Progress"],
    trace: Trace,
) -> MapCreated:
    creators = rows_as(
        SourceCreator,
        await conn.fetch(
            "SELECT user_id, is_primary FROM maps.creators WHERE map_id = $1 ORDER BY user_id",
            source.id,
        ),
    )
    raw = source.raw_difficulty
    request = MapCreateRequest(
        code=code,
        map_name=source.map_name,
        creators=[MapCreatorRequest(id=row.user_id, is_primary=row.is_primary) for row in creators],
        category=source.category,
        checkpoints=source.checkpoints,
        official=official,
        playtesting=playtesting,
        hidden=hidden,
        raw_difficulty=None if raw is None else float(raw),
    )
    return await create_map(conn, request, trace=trace)
