"""Verify or reject a tournament completion in one transaction."""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse

from genji_api.database import Database
from genji_api.http.tracing import Trace
from genji_api.tournaments.verdicts import apply_tournament_verdict


async def set_tournament_verdict(
    database: Database,
    tournament_completion_id: int,
    *,
    verified: bool,
    verified_by: int,
    trace: Trace | None = None,
) -> JobStatusResponse:
    async def work(conn: asyncpg.Connection) -> JobStatusResponse:
        return await apply_tournament_verdict(
            conn,
            tournament_completion_id=tournament_completion_id,
            verified=verified,
            verified_by=verified_by,
            trace=trace,
        )

    return await database.transaction(work)
