"""Reads of public.newsfeed (entries are written by genji_api.newsfeed.entries)."""

from __future__ import annotations

import asyncpg

from genji_api.newsfeed.models import NewsfeedEntryResponse
from genji_api.rows import maybe_row_as


async def entry(conn: asyncpg.Connection, newsfeed_id: int) -> NewsfeedEntryResponse | None:
    return maybe_row_as(
        NewsfeedEntryResponse,
        await conn.fetchrow(
            "SELECT id, timestamp, payload FROM public.newsfeed WHERE id = $1", newsfeed_id
        ),
    )
