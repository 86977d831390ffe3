"""SQL on maps.edit_requests and the map columns an accepted edit changes; never commits."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import asyncpg
import msgspec

from genji_api.effects.mirrors import SentIds
from genji_api.map_edits.models import MapEditResponse
from genji_api.rows import maybe_row_as, row_as


@dataclass(frozen=True)
class EditedMap:
    id: int
    code: str


@dataclass(frozen=True)
class EditableMap:
    """The map columns an edit proposal names, before the edit."""

    id: int
    code: str
    map_name: str
    category: str
    checkpoints: int
    difficulty: str | None
    raw_difficulty: Decimal | None
    archived: bool
    hidden: bool
    official: bool


@dataclass(frozen=True)
class MapStage:
    code: str
    playtesting: str


ONE_PENDING_PER_MAP = "edit_requests_one_pending_per_map"

_COLUMNS = (
    "id, map_id, code, proposed_changes, reason, created_by, created_at, message_id, "
    "accepted, resolved_by, resolved_at, rejection_reason"
)


async def map_by_code(conn: asyncpg.Connection, code: str) -> EditedMap | None:
    return maybe_row_as(
        EditedMap, await conn.fetchrow("SELECT id, code FROM core.maps WHERE code = $1", code)
    )


async def pending_exists(conn: asyncpg.Connection, map_id: int) -> bool:
    found: bool = await conn.fetchval(
        "SELECT EXISTS (SELECT 1 FROM maps.edit_requests WHERE map_id = $1 AND accepted IS NULL)",
        map_id,
    )
    return found


async def insert(
    conn: asyncpg.Connection,
    *,
    map_id: int,
    code: str,
    proposed_changes: dict[str, Any],
    reason: str,
    created_by: int,
) -> int:
    """Raises asyncpg.UniqueViolationError on ONE_PENDING_PER_MAP when one is pending."""
    edit_id: int = await conn.fetchval(
        "INSERT INTO maps.edit_requests (map_id, code, proposed_changes, reason, created_by) "
        "VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING id",
        map_id,
        code,
        proposed_changes,
        reason,
        created_by,
    )
    return edit_id


async def fetch(
    conn: asyncpg.Connection, edit_id: int, *, for_update: bool = False
) -> MapEditResponse | None:
    lock = " FOR UPDATE" if for_update else ""
    row = await conn.fetchrow(
        f"SELECT {_COLUMNS} FROM maps.edit_requests WHERE id = $1{lock}", edit_id
    )
    return None if row is None else msgspec.convert(dict(row), MapEditResponse)


async def mark_resolved(
    conn: asyncpg.Connection,
    edit_id: int,
    *,
    accepted: bool,
    resolved_by: int,
    rejection_reason: str | None,
) -> None:
    await conn.execute(
        "UPDATE maps.edit_requests SET accepted = $2, resolved_by = $3, resolved_at = now(), "
        "rejection_reason = $4 WHERE id = $1",
        edit_id,
        accepted,
        resolved_by,
        rejection_reason,
    )


async def set_message(conn: asyncpg.Connection, edit_id: int, message_id: int) -> bool:
    updated: str = await conn.execute(
        "UPDATE maps.edit_requests SET message_id = $2 WHERE id = $1", edit_id, message_id
    )
    return updated == "UPDATE 1"


async def write_verification_message(conn: asyncpg.Connection, edit_id: int, sent: SentIds) -> None:
    """The mirror of the moderation card's send: the request's message_id, with the binding."""
    await conn.execute(
        "UPDATE maps.edit_requests SET message_id = $2 WHERE id = $1", edit_id, sent.message_id
    )


async def lock_map(conn: asyncpg.Connection, map_id: int) -> EditableMap:
    return row_as(
        EditableMap,
        await conn.fetchrow(
            "SELECT id, code, map_name, category, checkpoints, difficulty, raw_difficulty, "
            "archived, hidden, official FROM core.maps WHERE id = $1 FOR UPDATE",
            map_id,
        ),
    )


async def map_stage(conn: asyncpg.Connection, map_id: int) -> MapStage | None:
    return maybe_row_as(
        MapStage,
        await conn.fetchrow("SELECT code, playtesting FROM core.maps WHERE id = $1", map_id),
    )


# The columns an accepted edit may write, by the name they have in a proposal.
_WRITABLE = {
    "map_name": "map_name",
    "category": "category",
    "checkpoints": "checkpoints",
    "raw_difficulty": "raw_difficulty",
    "archived": "archived",
    "hidden": "hidden",
    "official": "official",
}


async def update_map(conn: asyncpg.Connection, map_id: int, values: dict[str, Any]) -> None:
    """Write `values` (keys from _WRITABLE) to the map; nothing when empty."""
    if not values:
        return
    names = list(values)
    assignments = ", ".join(f"{_WRITABLE[name]} = ${i + 2}" for i, name in enumerate(names))
    await conn.execute(
        f"UPDATE core.maps SET {assignments} WHERE id = $1",
        map_id,
        *(values[name] for name in names),
    )
