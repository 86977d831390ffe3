"""Placement and streak XP of an ended edition, applied once through the tournament ledger.

`tournaments.xp_grants` (one row per cycle, user and reason) is the final guard: only a fresh
ledger row applies an XP grant, whose own grant key and api.xp.grant job then commit in the
caller's transaction, together with whatever acknowledged the results. An edition rewards many
users at once, so their announcements are enqueued together, in grant order, in one call.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

import asyncpg
from genji_sdk.payloads import TournamentCycleCompletedEvent, XpGrantEvent

from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_jobs
from genji_api.rows import rows_as
from genji_api.tournaments.rows import Participant, StreakAdvance, StreakRules
from genji_api.xp.grants import apply_xp_grant, xp_grant_job

Reason = Literal["participation", "placement", "streak"]


def grant_key(cycle_id: int, user_id: int, reason: Reason) -> str:
    return f"tournament:{cycle_id}:{user_id}:{reason}"


async def _grant_once(
    conn: asyncpg.Connection,
    *,
    cycle_id: int,
    user_id: int,
    reason: Reason,
    amount: int,
    description: str,
    announce: list[XpGrantEvent],
) -> bool:
    fresh = await conn.fetchval(
        "INSERT INTO tournaments.xp_grants (cycle_id, user_id, reason, amount) "
        "VALUES ($1, $2, $3, $4) ON CONFLICT (cycle_id, user_id, reason) DO NOTHING "
        "RETURNING id",
        cycle_id,
        user_id,
        reason,
        amount,
    )
    if fresh is None:
        return False
    event, _ = await apply_xp_grant(
        conn,
        user_id=user_id,
        base_amount=amount,
        xp_type="Tournament",
        grant_key=grant_key(cycle_id, user_id, reason),
        reason=description,
    )
    announce.append(event)
    return True


async def _placements(
    conn: asyncpg.Connection, result: TournamentCycleCompletedEvent, announce: list[XpGrantEvent]
) -> int:
    rules = await conn.fetchval(
        "SELECT placement_xp FROM tournaments.categories WHERE id = $1", result.category_id
    )
    by_place = {int(rule["place"]): int(rule["xp"]) for rule in _rules(rules)}
    granted = 0
    for entry in result.standings:
        amount = by_place.get(entry.rank, 0)
        if not entry.verified or amount <= 0:
            continue
        granted += await _grant_once(
            conn,
            cycle_id=result.cycle_id,
            user_id=entry.user_id,
            reason="placement",
            amount=amount,
            description=f"Tournament placement #{entry.rank}",
            announce=announce,
        )
    return granted


def _rules(value: object) -> list[dict[str, Any]]:
    """A category's jsonb rule list, whichever way the connection decoded it."""
    rules = json.loads(value) if isinstance(value, str) else value
    return list(rules) if isinstance(rules, list) else []


async def _streaks(conn: asyncpg.Connection, edition_id: int, announce: list[XpGrantEvent]) -> int:
    """Advance streaks once per edition; bonus XP when a new streak meets a threshold.

    The edition's first cycle marks the advance (`last_cycle_id`), so a rerun changes nothing.
    """
    marker: int | None = await conn.fetchval(
        "SELECT min(id) FROM tournaments.cycles WHERE edition_id = $1", edition_id
    )
    if marker is None:
        return 0
    participants = [
        r.user_id
        for r in rows_as(
            Participant,
            await conn.fetch(
                "SELECT DISTINCT c.user_id FROM tournaments.completions c "
                "JOIN tournaments.cycles cy ON cy.id = c.cycle_id WHERE cy.edition_id = $1",
                edition_id,
            ),
        )
    ]
    advanced_records = await conn.fetch(
        """
        INSERT INTO tournaments.streaks AS s (user_id, current_streak, max_streak, last_cycle_id)
        SELECT u, 1, 1, $2 FROM unnest($1::bigint[]) AS u
        ON CONFLICT (user_id) DO UPDATE
            SET current_streak = s.current_streak + 1,
                max_streak = greatest(s.max_streak, s.current_streak + 1),
                last_cycle_id = EXCLUDED.last_cycle_id
            WHERE s.last_cycle_id IS DISTINCT FROM EXCLUDED.last_cycle_id
        RETURNING user_id, current_streak
        """,
        participants,
        marker,
    )
    await conn.execute(
        "UPDATE tournaments.streaks SET current_streak = 0, last_cycle_id = $2 "
        "WHERE user_id <> ALL ($1::bigint[]) AND last_cycle_id IS DISTINCT FROM $2",
        participants,
        marker,
    )
    granted = 0
    for row in rows_as(StreakAdvance, advanced_records):
        amount = await _streak_bonus(conn, edition_id, row.user_id, row.current_streak)
        if amount > 0:
            granted += await _grant_once(
                conn,
                cycle_id=marker,
                user_id=row.user_id,
                reason="streak",
                amount=amount,
                description=f"Tournament streak of {row.current_streak}",
                announce=announce,
            )
    return granted


async def _streak_bonus(
    conn: asyncpg.Connection, edition_id: int, user_id: int, streak: int
) -> int:
    """The largest bonus for `streak` among the categories the user played this edition."""
    rows = rows_as(
        StreakRules,
        await conn.fetch(
            "SELECT DISTINCT cat.id, cat.streak_xp FROM tournaments.categories cat "
            "JOIN tournaments.cycles cy ON cy.category_id = cat.id "
            "JOIN tournaments.completions c ON c.cycle_id = cy.id "
            "WHERE cy.edition_id = $1 AND c.user_id = $2",
            edition_id,
            user_id,
        ),
    )
    return max(
        (
            int(rule["xp"])
            for row in rows
            for rule in _rules(row.streak_xp)
            if int(rule["threshold"]) == streak
        ),
        default=0,
    )


async def grant_edition_rewards(
    conn: asyncpg.Connection,
    edition_id: int,
    results: Sequence[TournamentCycleCompletedEvent],
    trace: Trace | None = None,
) -> int:
    """Placement XP per cycle and streaks once per edition; the number of fresh grants."""
    announce: list[XpGrantEvent] = []
    granted = 0
    for result in results:
        granted += await _placements(conn, result, announce)
    granted += await _streaks(conn, edition_id, announce)
    await enqueue_jobs(conn, [xp_grant_job(event) for event in announce], trace=trace)
    return granted
