"""Edit requests for tests that start from one, inserted on the owner's connection."""

from __future__ import annotations

import json
from typing import Any

import asyncpg


async def edit_request(
    conn: asyncpg.Connection,
    map_id: int,
    code: str,
    created_by: int,
    proposed: dict[str, Any],
    reason: str = "Typo in the name",
) -> int:
    edit_id: int = await conn.fetchval(
        "INSERT INTO maps.edit_requests (map_id, code, proposed_changes, reason, created_by) "
        "VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING id",
        map_id,
        code,
        json.dumps(proposed),
        reason,
        created_by,
    )
    return edit_id
