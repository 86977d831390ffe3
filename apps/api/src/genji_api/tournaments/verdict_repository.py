"""SQL of tournament verdicts, their completions and the participation XP ledger."""

from __future__ import annotations

import asyncpg

from genji_api.rows import maybe_row_as
from genji_api.tournaments.rows import JudgedCompletion, LatestVerdict


async def lock_tournament_completion(
    conn: asyncpg.Connection, tournament_completion_id: int
) -> JudgedCompletion | None:
    return maybe_row_as(
        JudgedCompletion,
        await conn.fetchrow(
            "SELECT id, cycle_id, user_id, time, status FROM tournaments.completions "
            "WHERE id = $1 FOR UPDATE",
            tournament_completion_id,
        ),
    )


async def latest_verdict(
    conn: asyncpg.Connection, tournament_completion_id: int
) -> LatestVerdict | None:
    return maybe_row_as(
        LatestVerdict,
        await conn.fetchrow(
            "SELECT id, verified FROM tournaments.verdicts WHERE tournament_completion_id = $1 "
            "ORDER BY id DESC LIMIT 1",
            tournament_completion_id,
        ),
    )


async def record_verdict(
    conn: asyncpg.Connection,
    *,
    tournament_completion_id: int,
    verified: bool,
    verified_by: int,
) -> int:
    """Set the completion's status and persist the verdict; returns the verdict id."""
    await conn.execute(
        "UPDATE tournaments.completions SET status = $2 WHERE id = $1",
        tournament_completion_id,
        "verified" if verified else "rejected",
    )
    verdict_id: int = await conn.fetchval(
        "INSERT INTO tournaments.verdicts (tournament_completion_id, verified, verified_by) "
        "VALUES ($1, $2, $3) RETURNING id",
        tournament_completion_id,
        verified,
        verified_by,
    )
    return verdict_id


async def participation_xp(conn: asyncpg.Connection, cycle_id: int) -> int:
    amount: int = await conn.fetchval(
        "SELECT cat.participation_xp FROM tournaments.cycles c "
        "JOIN tournaments.categories cat ON cat.id = c.category_id WHERE c.id = $1",
        cycle_id,
    )
    return amount


async def claim_participation(
    conn: asyncpg.Connection, *, cycle_id: int, user_id: int, amount: int
) -> bool:
    """Record the (cycle, user) participation grant; False when it was already recorded."""
    inserted = await conn.fetchval(
        "INSERT INTO tournaments.xp_grants (cycle_id, user_id, reason, amount) "
        "VALUES ($1, $2, 'participation', $3) "
        "ON CONFLICT (cycle_id, user_id, reason) DO NOTHING RETURNING id",
        cycle_id,
        user_id,
        amount,
    )
    return inserted is not None
