"""SQL of completion verdicts: the completion's verdict columns and its transition rows."""

from __future__ import annotations

import asyncpg

from genji_api.completions.rows import LockedCompletion, Transition
from genji_api.rows import maybe_row_as, row_as


async def lock_completion(conn: asyncpg.Connection, completion_id: int) -> LockedCompletion | None:
    return maybe_row_as(
        LockedCompletion,
        await conn.fetchrow(
            "SELECT id, verified, verified_by, reason, tournament_completion_id "
            "FROM core.completions WHERE id = $1 FOR UPDATE",
            completion_id,
        ),
    )


async def latest_transition(conn: asyncpg.Connection, completion_id: int) -> Transition | None:
    return maybe_row_as(
        Transition,
        await conn.fetchrow(
            "SELECT id, completion_id, verified, verified_by, reason "
            "FROM completions.verification_transitions WHERE completion_id = $1 "
            "ORDER BY id DESC LIMIT 1",
            completion_id,
        ),
    )


async def record_verdict(
    conn: asyncpg.Connection,
    *,
    completion_id: int,
    verified: bool,
    verified_by: int,
    reason: str | None,
) -> Transition:
    """Set the completion's verdict columns and persist the transition; returns the transition."""
    await conn.execute(
        "UPDATE core.completions SET verified = $2, verified_by = $3, reason = $4 WHERE id = $1",
        completion_id,
        verified,
        verified_by,
        reason,
    )
    row = await conn.fetchrow(
        "INSERT INTO completions.verification_transitions "
        "(completion_id, verified, verified_by, reason) VALUES ($1, $2, $3, $4) "
        "RETURNING id, completion_id, verified, verified_by, reason",
        completion_id,
        verified,
        verified_by,
        reason,
    )
    return row_as(Transition, row)
