"""SQL on maps.mastery and the verified runs it is computed from."""

from __future__ import annotations

import asyncpg


async def mastered_maps(conn: asyncpg.Connection, user_id: int, map_name: str) -> int:
    count: int = await conn.fetchval(
        "SELECT count(DISTINCT c.map_id) FROM core.completions c "
        "JOIN core.maps m ON m.id = c.map_id "
        "WHERE c.user_id = $1 AND m.map_name = $2 AND m.official AND c.verified",
        user_id,
        map_name,
    )
    return count


async def lock_level(conn: asyncpg.Connection, user_id: int, map_name: str) -> str | None:
    level: str | None = await conn.fetchval(
        "SELECT level FROM maps.mastery WHERE user_id = $1 AND map_name = $2 FOR UPDATE",
        user_id,
        map_name,
    )
    return level


async def store_level(conn: asyncpg.Connection, user_id: int, map_name: str, level: str) -> None:
    await conn.execute(
        "INSERT INTO maps.mastery (user_id, map_name, level) VALUES ($1, $2, $3) "
        "ON CONFLICT (user_id, map_name) DO UPDATE SET level = EXCLUDED.level, updated_at = now()",
        user_id,
        map_name,
        level,
    )
