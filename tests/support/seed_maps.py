"""Map and playtest rows a test needs, inserted on the owner's own connection."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import asyncpg

from .seed import game_map, user, verified_completion

_threads = itertools.count(1)

BASE_THREAD_ID = 2 * 10**18


@dataclass(frozen=True)
class SeededPlaytest:
    map_id: int
    code: str
    playtest_id: int
    thread_id: int
    creator_id: int
    voter_id: int
    """A user with a verified, non-legacy completion of the map: eligible to vote."""


def new_thread_id() -> int:
    return BASE_THREAD_ID + next(_threads)


async def playtest(
    conn: asyncpg.Connection, *, thread_id: int | None = None, bound: bool = True
) -> SeededPlaytest:
    """A map in playtesting with its open playtest, bound to a thread unless `bound` is False."""
    creator = await user(conn)
    map_id, code = await game_map(
        conn, creator=creator, playtesting="In Progress", hidden=False, raw_difficulty=4.0
    )
    thread = (thread_id or new_thread_id()) if bound else None
    playtest_id: int = await conn.fetchval(
        "INSERT INTO playtests.meta (map_id, thread_id, initial_difficulty) "
        "VALUES ($1, $2, 4.0) RETURNING id",
        map_id,
        thread,
    )
    voter = await user(conn)
    await verified_completion(conn, map_id, voter)
    return SeededPlaytest(
        map_id=map_id,
        code=code,
        playtest_id=playtest_id,
        thread_id=thread or 0,
        creator_id=creator,
        voter_id=voter,
    )


async def vote(conn: asyncpg.Connection, seeded: SeededPlaytest, difficulty: float) -> int:
    """A vote by a fresh eligible voter; returns the voter's id."""
    voter = await user(conn)
    await verified_completion(conn, seeded.map_id, voter)
    await conn.execute(
        "INSERT INTO playtests.votes (user_id, map_id, playtest_thread_id, difficulty) "
        "VALUES ($1, $2, $3, $4)",
        voter,
        seeded.map_id,
        seeded.thread_id,
        difficulty,
    )
    return voter


def map_body(code: str, creator: int, **fields: Any) -> dict[str, Any]:
    """A POST /maps body: one primary creator, playtesting unless told otherwise."""
    body: dict[str, Any] = {
        "code": code,
        "map_name": "Hanamura",
        "checkpoints": 10,
        "difficulty": "Hard",
        "creators": [{"id": creator, "is_primary": True}],
    }
    body.update(fields)
    return body
