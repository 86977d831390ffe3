"""Reads of public.newsfeed (entries are written by genji_api.newsfeed.entries)."""

from __future__ import annotations

import asyncpg


async def entry(conn: asyncpg.Connection, newsfeed_id: int) -> asyncpg.Record | None:
    row: asyncpg.Record | None = await conn.fetchrow(
        "SELECT id, timestamp, payload FROM public.newsfeed WHERE id = $1", newsfeed_id
    )
    return row
