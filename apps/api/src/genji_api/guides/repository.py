"""SQL on maps.guides and the map a guide belongs to."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg


@dataclass(frozen=True)
class GuideMap:
    id: int
    code: str
    official: bool


@dataclass(frozen=True)
class Guide:
    id: int
    user_id: int
    url: str


async def map_by_code(conn: asyncpg.Connection, code: str) -> GuideMap | None:
    """Archived maps included. The key-share lock keeps the map until the transaction ends."""
    row = await conn.fetchrow(
        "SELECT id, code, official FROM core.maps WHERE code = $1 FOR KEY SHARE", code
    )
    return None if row is None else GuideMap(row["id"], row["code"], row["official"])


async def insert_guide(conn: asyncpg.Connection, map_id: int, user_id: int, url: str) -> int | None:
    """The new guide's id, or None when the user already has a guide for the map.

    A concurrent uncommitted insert of the same (user, map) makes this wait for its outcome:
    if it commits this returns None, and the next statement's snapshot sees that guide.
    """
    guide_id: int | None = await conn.fetchval(
        "INSERT INTO maps.guides (map_id, user_id, url) VALUES ($1, $2, $3) "
        "ON CONFLICT ON CONSTRAINT guides_user_id_map_id_unique DO NOTHING RETURNING id",
        map_id,
        user_id,
        url,
    )
    return guide_id


async def guide_of(conn: asyncpg.Connection, map_id: int, user_id: int) -> Guide | None:
    row = await conn.fetchrow(
        "SELECT id, user_id, url FROM maps.guides WHERE map_id = $1 AND user_id = $2",
        map_id,
        user_id,
    )
    return None if row is None else Guide(row["id"], row["user_id"], row["url"])


async def guides_of_map(conn: asyncpg.Connection, map_id: int) -> list[Guide]:
    rows = await conn.fetch(
        "SELECT id, user_id, url FROM maps.guides WHERE map_id = $1 ORDER BY id", map_id
    )
    return [Guide(row["id"], row["user_id"], row["url"]) for row in rows]


async def delete_guide(conn: asyncpg.Connection, map_id: int, user_id: int) -> bool:
    deleted = await conn.fetchval(
        "DELETE FROM maps.guides WHERE map_id = $1 AND user_id = $2 RETURNING id",
        map_id,
        user_id,
    )
    return deleted is not None
