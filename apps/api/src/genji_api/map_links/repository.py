"""SQL on core.maps links and maps.link_operations; never commits."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import asyncpg

from genji_api.rows import maybe_row_as, rows_as


@dataclass(frozen=True)
class LinkableMap:
    id: int
    code: str
    map_name: str
    category: str
    checkpoints: int
    official: bool
    playtesting: str
    hidden: bool
    archived: bool
    raw_difficulty: Decimal | None
    difficulty: str | None
    linked_code: str | None


@dataclass(frozen=True)
class LinkOperation:
    id: int
    official_map_id: int
    unofficial_map_id: int
    newsfeed_id: int | None


@dataclass(frozen=True)
class SourceCreator:
    user_id: int
    is_primary: bool


SYMMETRY = "maps_linked_code_symmetric"


async def lock_maps(conn: asyncpg.Connection, codes: list[str]) -> dict[str, LinkableMap]:
    """The maps with these codes, locked in code order (so two linkers cannot deadlock)."""
    rows = await conn.fetch(
        "SELECT id, code, map_name, category, checkpoints, official, playtesting, hidden, "
        "archived, raw_difficulty, difficulty, linked_code FROM core.maps "
        "WHERE code = ANY($1::text[]) ORDER BY code FOR UPDATE",
        codes,
    )
    return {found.code: found for found in rows_as(LinkableMap, rows)}


async def link(conn: asyncpg.Connection, official_code: str, unofficial_code: str) -> None:
    """The symmetric trigger points the counterpart back, or raises on SYMMETRY."""
    await conn.execute(
        "UPDATE core.maps SET linked_code = $2 WHERE code = $1", official_code, unofficial_code
    )


async def unlink(conn: asyncpg.Connection, official_code: str) -> None:
    await conn.execute("UPDATE core.maps SET linked_code = NULL WHERE code = $1", official_code)


async def insert_operation(
    conn: asyncpg.Connection, official_map_id: int, unofficial_map_id: int
) -> int:
    operation_id: int = await conn.fetchval(
        "INSERT INTO maps.link_operations (official_map_id, unofficial_map_id) "
        "VALUES ($1, $2) RETURNING id",
        official_map_id,
        unofficial_map_id,
    )
    return operation_id


async def lock_operation(conn: asyncpg.Connection, operation_id: int) -> LinkOperation | None:
    return maybe_row_as(
        LinkOperation,
        await conn.fetchrow(
            "SELECT id, official_map_id, unofficial_map_id, newsfeed_id FROM maps.link_operations "
            "WHERE id = $1 FOR UPDATE",
            operation_id,
        ),
    )


async def record_newsfeed(conn: asyncpg.Connection, operation_id: int, newsfeed_id: int) -> None:
    await conn.execute(
        "UPDATE maps.link_operations SET newsfeed_id = $2 WHERE id = $1", operation_id, newsfeed_id
    )


async def playtest_thread(conn: asyncpg.Connection, map_id: int) -> int | None:
    """The thread of the map's latest playtest, None before the bot has made it."""
    thread_id: int | None = await conn.fetchval(
        "SELECT thread_id FROM playtests.meta WHERE map_id = $1 ORDER BY id DESC LIMIT 1", map_id
    )
    return thread_id
