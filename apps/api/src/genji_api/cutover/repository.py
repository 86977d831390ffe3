"""SQL on queue_imports and queue_import_dispositions (never commits)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg

from genji_api.rows import maybe_row_as, rows_as


@dataclass(frozen=True)
class Disposition:
    source_id: str
    source_queue: str
    disposition: str
    job_id: UUID | None
    event_name: str | None
    event_key: str | None
    detail: str | None
    """JSON text."""


@dataclass(frozen=True)
class ImportRow:
    import_id: str
    manifest_sha256: str
    exported_at: datetime | None
    source_messages: int
    created_at: datetime


async def manifest_of(conn: asyncpg.Connection, import_id: str) -> str | None:
    sha: str | None = await conn.fetchval(
        "SELECT manifest_sha256 FROM queue_imports WHERE import_id = $1 FOR UPDATE", import_id
    )
    return sha


async def create_import(
    conn: asyncpg.Connection,
    *,
    import_id: str,
    manifest_sha256: str,
    exported_at: datetime,
    source_messages: int,
) -> None:
    await conn.execute(
        "INSERT INTO queue_imports (import_id, manifest_sha256, exported_at, source_messages)"
        " VALUES ($1, $2, $3, $4)",
        import_id,
        manifest_sha256,
        exported_at,
        source_messages,
    )


async def recorded_sources(conn: asyncpg.Connection, import_id: str) -> set[str]:
    rows = await conn.fetch(
        "SELECT source_id FROM queue_import_dispositions WHERE import_id = $1", import_id
    )
    return {row["source_id"] for row in rows}


async def record(
    conn: asyncpg.Connection,
    *,
    import_id: str,
    source_id: str,
    source_queue: str,
    disposition: str,
    job_id: UUID | None,
    event_name: str | None,
    event_key: str | None,
    detail: dict[str, Any],
) -> None:
    await conn.execute(
        "INSERT INTO queue_import_dispositions"
        " (source_id, source_queue, disposition, job_id, detail, import_id, event_name, event_key)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        source_id,
        source_queue,
        disposition,
        job_id,
        json.dumps(detail, sort_keys=True),
        import_id,
        event_name,
        event_key,
    )


async def dispositions(conn: asyncpg.Connection, import_id: str) -> list[Disposition]:
    return rows_as(
        Disposition,
        await conn.fetch(
            "SELECT source_id, source_queue, disposition, job_id, event_name, event_key, detail"
            " FROM queue_import_dispositions WHERE import_id = $1"
            " ORDER BY source_queue, length(source_id), source_id",
            import_id,
        ),
    )


async def import_row(conn: asyncpg.Connection, import_id: str) -> ImportRow | None:
    return maybe_row_as(
        ImportRow,
        await conn.fetchrow(
            "SELECT import_id, manifest_sha256, exported_at, source_messages, created_at"
            " FROM queue_imports WHERE import_id = $1",
            import_id,
        ),
    )
