"""Reads recovery needs besides its SQL functions."""

from __future__ import annotations

from uuid import UUID

import asyncpg


async def alert_message_id(conn: asyncpg.Connection, job_id: UUID) -> int | None:
    """The message id of the job's alert card, locked against a concurrent rebinding."""
    message_id: int | None = await conn.fetchval(
        "SELECT message_id FROM job_alerts WHERE job_id = $1 FOR SHARE", job_id
    )
    return message_id
