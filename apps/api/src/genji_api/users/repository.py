"""Reads of core.users shared by the features that act on a user's behalf."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from genji_api.errors import NotFoundError

UNKNOWN_USER = "Unknown User"


@dataclass(frozen=True)
class PlayedDifficulty:
    """A difficulty the user has a verified run on (the skill rank's input)."""

    difficulty: str


async def lock_user(conn: asyncpg.Connection, user_id: int) -> None:
    """404 unless the user exists; the key-share lock keeps it until the transaction ends, so a
    concurrent deletion cannot turn a later foreign key into a server error."""
    found = await conn.fetchval("SELECT true FROM core.users WHERE id = $1 FOR KEY SHARE", user_id)
    if not found:
        raise NotFoundError(f"No user found with id: {user_id}")


async def display_name(conn: asyncpg.Connection, user_id: int) -> str:
    """The primary Overwatch username, else the nickname, else the global name."""
    name: str | None = await conn.fetchval(
        """
        SELECT coalesce(
            (SELECT o.username FROM users.overwatch_usernames o
             WHERE o.user_id = u.id AND o.is_primary),
            nullif(u.nickname, ''),
            nullif(u.global_name, '')
        )
        FROM core.users u WHERE u.id = $1
        """,
        user_id,
    )
    return name or UNKNOWN_USER
