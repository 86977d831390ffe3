"""SQL of the tournament OCR job: the tournament completion and its recorded OCR decision."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg

from genji_api.ocr.decision import OcrOutcome


@dataclass(frozen=True)
class TournamentOcrCandidate:
    tournament_completion_id: int
    cycle_id: int
    user_id: int
    map_code: str
    time: float
    screenshot: str
    video: str | None
    status: str
    """'pending', 'verified' or 'rejected'."""
    decision: OcrOutcome | None


_COMPLETION = """
    SELECT t.id, t.cycle_id, t.user_id, m.code, t.time, t.screenshot, t.video, t.status
    FROM tournaments.completions t JOIN core.maps m ON m.id = t.map_id
    WHERE t.id = $1
"""


async def _candidate(
    conn: asyncpg.Connection, tournament_completion_id: int, *, lock: bool
) -> TournamentOcrCandidate | None:
    row = await conn.fetchrow(
        _COMPLETION + (" FOR UPDATE OF t" if lock else ""), tournament_completion_id
    )
    if row is None:
        return None
    # Separate from the locking statement so it sees a decision committed while we waited.
    decision = await conn.fetchval(
        "SELECT outcome FROM tournaments.ocr_decisions WHERE tournament_completion_id = $1",
        tournament_completion_id,
    )
    return TournamentOcrCandidate(
        tournament_completion_id=row["id"],
        cycle_id=row["cycle_id"],
        user_id=row["user_id"],
        map_code=row["code"],
        time=float(row["time"]),
        screenshot=row["screenshot"],
        video=row["video"],
        status=row["status"],
        decision=decision,
    )


async def read_candidate(
    conn: asyncpg.Connection, tournament_completion_id: int
) -> TournamentOcrCandidate | None:
    return await _candidate(conn, tournament_completion_id, lock=False)


async def lock_candidate(
    conn: asyncpg.Connection, tournament_completion_id: int
) -> TournamentOcrCandidate | None:
    """The tournament completion with its row locked until the caller's transaction ends."""
    return await _candidate(conn, tournament_completion_id, lock=True)


async def record_decision(
    conn: asyncpg.Connection,
    *,
    tournament_completion_id: int,
    outcome: OcrOutcome,
    extracted: dict[str, Any] | None,
) -> None:
    await conn.execute(
        "INSERT INTO tournaments.ocr_decisions (tournament_completion_id, outcome, extracted) "
        "VALUES ($1, $2, $3::jsonb)",
        tournament_completion_id,
        outcome,
        extracted,
    )
