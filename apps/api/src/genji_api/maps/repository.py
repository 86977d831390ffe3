"""SQL on core.maps, maps.creators and maps.guides. Never commits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

import asyncpg

from genji_api.rows import maybe_row_as, rows_as


@dataclass(frozen=True)
class LockedMap:
    id: int
    code: str
    map_name: str
    playtesting: str
    hidden: bool
    archived: bool
    raw_difficulty: Decimal | None
    difficulty: str | None


@dataclass(frozen=True)
class PlaytestMap:
    """A map with its open playtest, else its latest one, if any."""

    id: int
    code: str
    map_name: str
    playtesting: str
    difficulty: str | None
    playtest_id: int | None
    thread_id: int | None


@dataclass(frozen=True)
class ArchivableMap:
    id: int
    code: str
    map_name: str
    playtesting: str
    archived: bool


async def insert_map(
    conn: asyncpg.Connection,
    *,
    code: str,
    map_name: str,
    category: str,
    checkpoints: int,
    official: bool,
    playtesting: str,
    hidden: bool,
    raw_difficulty: float | None,
) -> int | None:
    """The new map's id, or None when the code is taken (waiting for a concurrent insert)."""
    map_id: int | None = await conn.fetchval(
        """
        INSERT INTO core.maps
            (code, map_name, category, checkpoints, official, playtesting, hidden, raw_difficulty)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (code) DO NOTHING
        RETURNING id
        """,
        code,
        map_name,
        category,
        checkpoints,
        official,
        playtesting,
        hidden,
        raw_difficulty,
    )
    return map_id


async def missing_users(conn: asyncpg.Connection, user_ids: Sequence[int]) -> list[int]:
    rows = await conn.fetch(
        "SELECT u.id FROM unnest($1::bigint[]) AS u(id) "
        "WHERE NOT EXISTS (SELECT 1 FROM core.users c WHERE c.id = u.id) ORDER BY u.id",
        list(user_ids),
    )
    return [row["id"] for row in rows]


async def insert_creators(
    conn: asyncpg.Connection, map_id: int, creators: Sequence[tuple[int, bool]]
) -> None:
    await conn.executemany(
        "INSERT INTO maps.creators (map_id, user_id, is_primary) VALUES ($1, $2, $3)",
        [(map_id, user_id, is_primary) for user_id, is_primary in creators],
    )


async def creator_names(conn: asyncpg.Connection, map_id: int) -> list[str]:
    rows = await conn.fetch(
        "SELECT coalesce(u.global_name, u.nickname) AS name FROM maps.creators c "
        "JOIN core.users u ON u.id = c.user_id WHERE c.map_id = $1 "
        "ORDER BY c.is_primary DESC, c.user_id",
        map_id,
    )
    return [row["name"] for row in rows]


async def primary_creator(conn: asyncpg.Connection, map_id: int) -> int:
    user_id: int = await conn.fetchval(
        "SELECT user_id FROM maps.creators WHERE map_id = $1 AND is_primary", map_id
    )
    return user_id


async def insert_guide(conn: asyncpg.Connection, map_id: int, user_id: int, url: str) -> int:
    guide_id: int = await conn.fetchval(
        "INSERT INTO maps.guides (map_id, user_id, url) VALUES ($1, $2, $3) RETURNING id",
        map_id,
        user_id,
        url,
    )
    return guide_id


async def lock_map_by_code(conn: asyncpg.Connection, code: str) -> LockedMap | None:
    return maybe_row_as(
        LockedMap,
        await conn.fetchrow(
            "SELECT id, code, map_name, playtesting, hidden, archived, raw_difficulty, difficulty "
            "FROM core.maps WHERE code = $1 FOR UPDATE",
            code,
        ),
    )


async def lock_maps_by_codes(conn: asyncpg.Connection, codes: Sequence[str]) -> list[ArchivableMap]:
    return rows_as(
        ArchivableMap,
        await conn.fetch(
            "SELECT id, code, map_name, playtesting, archived FROM core.maps "
            "WHERE code = ANY($1::text[]) ORDER BY id FOR UPDATE",
            list(codes),
        ),
    )


async def convert_completions_to_legacy(conn: asyncpg.Connection, map_id: int) -> int:
    status: str = await conn.execute(
        "UPDATE core.completions SET legacy = true WHERE map_id = $1 AND NOT legacy", map_id
    )
    return int(status.split()[-1])


async def set_playtesting(
    conn: asyncpg.Connection,
    map_id: int,
    playtesting: str,
    *,
    hidden: bool | None = None,
    raw_difficulty: float | None = None,
) -> None:
    await conn.execute(
        "UPDATE core.maps SET playtesting = $2, hidden = coalesce($3, hidden), "
        "raw_difficulty = coalesce($4, raw_difficulty) WHERE id = $1",
        map_id,
        playtesting,
        hidden,
        raw_difficulty,
    )


async def set_archived(conn: asyncpg.Connection, map_ids: Sequence[int], archived: bool) -> None:
    await conn.execute(
        "UPDATE core.maps SET archived = $2 WHERE id = ANY($1::int[])", list(map_ids), archived
    )


async def set_hidden(conn: asyncpg.Connection, map_id: int, hidden: bool) -> None:
    await conn.execute("UPDATE core.maps SET hidden = $2 WHERE id = $1", map_id, hidden)
