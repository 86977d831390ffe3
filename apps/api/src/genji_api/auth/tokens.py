"""Reads and writes of auth.api_tokens."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from genji_api.auth.keys import KEY_PREFIX_CHARS, key_digest, new_api_key
from genji_api.rows import maybe_row_as


@dataclass(frozen=True)
class _TokenRow:
    id: int
    is_superuser: bool
    scopes: list[str]
    user_id: int
    username: str


@dataclass(frozen=True)
class AuthUser:
    id: int
    username: str


@dataclass(frozen=True)
class AuthToken:
    token_id: int
    is_superuser: bool
    scopes: frozenset[str]


async def find_token(conn: asyncpg.Connection, api_key: str) -> tuple[AuthUser, AuthToken] | None:
    row = maybe_row_as(
        _TokenRow,
        await conn.fetchrow(
            """
            SELECT t.id, t.is_superuser, t.scopes, u.id AS user_id, u.username
            FROM auth.api_tokens t JOIN auth.users u ON u.id = t.user_id
            WHERE t.key_hash = $1 AND t.revoked_at IS NULL
            """,
            key_digest(api_key),
        ),
    )
    if row is None:
        return None
    return (
        AuthUser(id=row.user_id, username=row.username),
        AuthToken(token_id=row.id, is_superuser=row.is_superuser, scopes=frozenset(row.scopes)),
    )


async def issue_token(
    conn: asyncpg.Connection,
    username: str,
    *,
    superuser: bool = False,
    scopes: frozenset[str] = frozenset(),
) -> str:
    """Create (or reuse) the auth user and give it a new key; returns the key, shown once."""
    api_key = new_api_key()
    user_id = await conn.fetchval(
        "INSERT INTO auth.users (username) VALUES ($1) "
        "ON CONFLICT (username) DO UPDATE SET username = EXCLUDED.username RETURNING id",
        username,
    )
    await conn.execute(
        "INSERT INTO auth.api_tokens (user_id, key_hash, key_prefix, is_superuser, scopes) "
        "VALUES ($1, $2, $3, $4, $5)",
        user_id,
        key_digest(api_key),
        api_key[:KEY_PREFIX_CHARS],
        superuser,
        sorted(scopes),
    )
    return api_key
