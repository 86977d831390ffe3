"""The one status reader every caller uses (job endpoint, continuations, operators)."""

from __future__ import annotations

from uuid import UUID

import asyncpg
from genji_sdk.jobs import JobStatusResponse

from genji_api.queue.errors import translate


async def job_status(conn: asyncpg.Connection, job_id: UUID) -> JobStatusResponse:
    try:
        row = await conn.fetchrow(
            "SELECT job_id, status, error_code, error_msg FROM job_public_status($1)", job_id
        )
    except asyncpg.PostgresError as error:
        raise translate(error) from error
    assert row is not None
    return JobStatusResponse(
        id=row["job_id"],
        status=row["status"],
        error_code=row["error_code"],
        error_msg=row["error_msg"],
    )
