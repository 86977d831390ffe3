"""A copy of a map under its counterpart's code, created in the caller's transaction.

It writes what map creation writes for these two shapes: the map and its creators; an
'In Progress' map also gets its playtest and the api.playtest.create job (key
`map:submit:{map_id}`), an 'Approved' one its new_map newsfeed entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.newsfeed import NewsfeedNewMap
from genji_sdk.payloads import PlaytestCreatedEvent

from genji_api.http.tracing import Trace
from genji_api.newsfeed.entries import create_newsfeed
from genji_api.queue.enqueue import enqueue_job


@dataclass(frozen=True)
class ClonedMap:
    map_id: int
    playtest_job: JobStatusResponse | None
    """The api.playtest.create job of an 'In Progress' copy."""


async def clone_map(
    conn: asyncpg.Connection,
    source: asyncpg.Record,
    *,
    code: str,
    official: bool,
    hidden: bool,
    playtesting: Literal["Approved", "In Progress"],
    trace: Trace,
) -> ClonedMap:
    map_id: int = await conn.fetchval(
        "INSERT INTO core.maps (code, map_name, category, checkpoints, official, playtesting, "
        "hidden, raw_difficulty) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        code,
        source["map_name"],
        source["category"],
        source["checkpoints"],
        official,
        playtesting,
        hidden,
        source["raw_difficulty"],
    )
    await conn.execute(
        "INSERT INTO maps.creators (map_id, user_id, is_primary) "
        "SELECT $1, user_id, is_primary FROM maps.creators WHERE map_id = $2",
        map_id,
        source["id"],
    )
    if playtesting == "In Progress":
        playtest_id: int = await conn.fetchval(
            "INSERT INTO playtests.meta (map_id, initial_difficulty) VALUES ($1, $2) RETURNING id",
            map_id,
            source["raw_difficulty"],
        )
        job = await enqueue_job(
            conn,
            event_name="api.playtest.create",
            payload=PlaytestCreatedEvent(code=code, playtest_id=playtest_id),
            event_key=f"map:submit:{map_id}",
            entity_key=f"playtest:{playtest_id}",
            trace=trace,
        )
        return ClonedMap(map_id=map_id, playtest_job=job)
    creators = await conn.fetch(
        "SELECT coalesce(u.nickname, u.global_name, 'Unknown User') AS name "
        "FROM maps.creators c JOIN core.users u ON u.id = c.user_id "
        "WHERE c.map_id = $1 ORDER BY c.is_primary DESC, u.id",
        map_id,
    )
    await create_newsfeed(
        conn,
        NewsfeedNewMap(
            code=code,
            map_name=source["map_name"],
            difficulty=source["difficulty"],
            creators=[row["name"] for row in creators],
            official=official,
        ),
        trace=trace,
    )
    return ClonedMap(map_id=map_id, playtest_job=None)
