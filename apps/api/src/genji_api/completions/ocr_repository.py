"""SQL of the completion OCR job: the completion as OCR sees it, and its recorded decision."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg

from genji_api.ocr.decision import OcrOutcome


@dataclass(frozen=True)
class OcrCandidate:
    completion_id: int
    user_id: int
    map_code: str
    time: float
    screenshot: str
    verified: bool
    verified_by: int | None
    decision: OcrOutcome | None
    """The recorded OCR decision, if any."""

    @property
    def pending(self) -> bool:
        return not self.verified and self.verified_by is None


_COMPLETION = """
    SELECT c.id, c.user_id, m.code, c.time, c.screenshot, c.verified, c.verified_by
    FROM core.completions c JOIN core.maps m ON m.id = c.map_id
    WHERE c.id = $1
"""


async def _candidate(
    conn: asyncpg.Connection, completion_id: int, *, lock: bool
) -> OcrCandidate | None:
    row = await conn.fetchrow(_COMPLETION + (" FOR UPDATE OF c" if lock else ""), completion_id)
    if row is None:
        return None
    # A statement of its own: after waiting for the row lock it sees a decision committed by
    # whoever held the lock (a join in the locking statement would not).
    decision = await conn.fetchval(
        "SELECT outcome FROM completions.ocr_decisions WHERE completion_id = $1", completion_id
    )
    return OcrCandidate(
        completion_id=row["id"],
        user_id=row["user_id"],
        map_code=row["code"],
        time=float(row["time"]),
        screenshot=row["screenshot"],
        verified=row["verified"],
        verified_by=row["verified_by"],
        decision=decision,
    )


async def read_candidate(conn: asyncpg.Connection, completion_id: int) -> OcrCandidate | None:
    return await _candidate(conn, completion_id, lock=False)


async def lock_candidate(conn: asyncpg.Connection, completion_id: int) -> OcrCandidate | None:
    """The completion with its row locked until the caller's transaction ends."""
    return await _candidate(conn, completion_id, lock=True)


async def record_decision(
    conn: asyncpg.Connection,
    *,
    completion_id: int,
    outcome: OcrOutcome,
    extracted: dict[str, Any] | None,
) -> None:
    await conn.execute(
        "INSERT INTO completions.ocr_decisions (completion_id, outcome, extracted) "
        "VALUES ($1, $2, $3::jsonb)",
        completion_id,
        outcome,
        extracted,
    )
