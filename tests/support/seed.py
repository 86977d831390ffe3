"""Rows a test needs before it calls the API, inserted on the owner's own connection."""

from __future__ import annotations

import itertools

import asyncpg

_codes = itertools.count(1)
_users = itertools.count(1)

BASE_USER_ID = 10**18  # real-looking Discord snowflakes


def new_code() -> str:
    """A map code no other test of this run used (4-6 upper-case letters and digits)."""
    return f"T{next(_codes):04d}"


async def user(conn: asyncpg.Connection, user_id: int | None = None, *, name: str = "") -> int:
    user_id = user_id or BASE_USER_ID + next(_users)
    await conn.execute(
        "INSERT INTO core.users (id, nickname, global_name) VALUES ($1, $2, $2) "
        "ON CONFLICT (id) DO NOTHING",
        user_id,
        name or f"user{user_id % 100000}",
    )
    return user_id


async def overwatch_name(conn: asyncpg.Connection, user_id: int, username: str) -> None:
    await conn.execute(
        "INSERT INTO users.overwatch_usernames (user_id, username, is_primary) "
        "VALUES ($1, $2, NOT EXISTS "
        "(SELECT 1 FROM users.overwatch_usernames WHERE user_id = $1 AND is_primary))",
        user_id,
        username,
    )


async def game_map(
    conn: asyncpg.Connection,
    *,
    code: str | None = None,
    creator: int | None = None,
    official: bool = True,
    playtesting: str = "Approved",
    hidden: bool = False,
    archived: bool = False,
    raw_difficulty: float | None = 5.0,
) -> tuple[int, str]:
    """A map (and its primary creator); returns (map id, code)."""
    code = code or new_code()
    map_id: int = await conn.fetchval(
        "INSERT INTO core.maps (code, map_name, official, playtesting, hidden, archived, "
        "raw_difficulty) VALUES ($1, 'Hanamura', $2, $3, $4, $5, $6) RETURNING id",
        code,
        official,
        playtesting,
        hidden,
        archived,
        raw_difficulty,
    )
    creator = creator or await user(conn)
    await conn.execute(
        "INSERT INTO maps.creators (map_id, user_id, is_primary) VALUES ($1, $2, true)",
        map_id,
        creator,
    )
    return map_id, code


async def verified_completion(
    conn: asyncpg.Connection, map_id: int, user_id: int, time: float = 100.0
) -> int:
    completion_id: int = await conn.fetchval(
        "INSERT INTO core.completions (map_id, user_id, time, screenshot, verified, verified_by) "
        "VALUES ($1, $2, $3, 'https://img.example/run.png', true, $2) RETURNING id",
        map_id,
        user_id,
        time,
    )
    return completion_id
