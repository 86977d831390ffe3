"""SQL of a verified completion's XP reward: the run, its rank, and the world-record guard."""

from __future__ import annotations

import asyncpg

from genji_api.completions.rows import RewardedRun
from genji_api.rows import maybe_row_as


async def lock_rewarded_run(conn: asyncpg.Connection, completion_id: int) -> RewardedRun | None:
    return maybe_row_as(
        RewardedRun,
        await conn.fetchrow(
            "SELECT c.id, c.map_id, c.user_id, c.time, c.verified, c.completion, "
            "m.official, m.code "
            "FROM core.completions c JOIN core.maps m ON m.id = c.map_id "
            "WHERE c.id = $1 FOR UPDATE OF c",
            completion_id,
        ),
    )


async def record_rank(conn: asyncpg.Connection, run: RewardedRun) -> int:
    rank: int = await conn.fetchval(
        "SELECT 1 + count(DISTINCT user_id) FROM core.completions "
        "WHERE map_id = $1 AND verified AND NOT completion AND NOT legacy "
        "AND user_id <> $2 AND time < $3",
        run.map_id,
        run.user_id,
        run.time,
    )
    return rank


async def world_record_rewarded(conn: asyncpg.Connection, map_id: int, user_id: int) -> bool:
    """Whether any of the user's runs on the map already earned the world-record XP."""
    return bool(
        await conn.fetchval(
            "SELECT EXISTS (SELECT 1 FROM core.completions "
            "WHERE map_id = $1 AND user_id = $2 AND wr_xp_check)",
            map_id,
            user_id,
        )
    )


async def mark_world_record_rewarded(conn: asyncpg.Connection, completion_id: int) -> None:
    await conn.execute(
        "UPDATE core.completions SET wr_xp_check = true WHERE id = $1", completion_id
    )
