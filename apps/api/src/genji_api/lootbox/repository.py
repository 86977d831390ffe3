"""SQL on lootbox.user_keys, lootbox.active_key and the tier name tables."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from genji_api.rows import row_as


@dataclass(frozen=True)
class UserKey:
    id: int
    user_id: int
    key_type: str
    grant_key: str
    item: int


async def active_key_type(conn: asyncpg.Connection) -> str:
    key_type: str = await conn.fetchval("SELECT key_type FROM lootbox.active_key WHERE id = 1")
    return key_type


async def key_type_exists(conn: asyncpg.Connection, key_type: str) -> bool:
    found: bool = await conn.fetchval(
        "SELECT EXISTS (SELECT 1 FROM lootbox.key_types WHERE name = $1)", key_type
    )
    return found


async def insert_key(
    conn: asyncpg.Connection, user_id: int, key_type: str, grant_key: str, item: int
) -> tuple[UserKey, bool]:
    """The key row of (grant_key, item), and whether this call inserted it."""
    row = await conn.fetchrow(
        "INSERT INTO lootbox.user_keys (user_id, key_type, grant_key, item) "
        "VALUES ($1, $2, $3, $4) ON CONFLICT (grant_key, item) DO NOTHING "
        "RETURNING id, user_id, key_type, grant_key, item",
        user_id,
        key_type,
        grant_key,
        item,
    )
    if row is not None:
        return row_as(UserKey, row), True
    existing = await conn.fetchrow(
        "SELECT id, user_id, key_type, grant_key, item FROM lootbox.user_keys "
        "WHERE grant_key = $1 AND item = $2",
        grant_key,
        item,
    )
    assert existing is not None
    return row_as(UserKey, existing), False


async def xp_total(conn: asyncpg.Connection, user_id: int) -> int | None:
    """The user's XP total (0 before any grant), None for an unknown user."""
    row = await conn.fetchrow(
        "SELECT coalesce(x.amount, 0) AS amount FROM core.users u "
        "LEFT JOIN lootbox.xp x ON x.user_id = u.id WHERE u.id = $1",
        user_id,
    )
    return None if row is None else int(row["amount"])


async def tier_names(conn: asyncpg.Connection) -> tuple[dict[int, str], dict[int, str]]:
    main = await conn.fetch("SELECT threshold, name FROM lootbox.main_tiers")
    sub = await conn.fetch("SELECT threshold, name FROM lootbox.sub_tiers")
    return (
        {r["threshold"]: r["name"] for r in main},
        {r["threshold"]: r["name"] for r in sub},
    )
