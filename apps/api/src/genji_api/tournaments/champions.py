"""Who holds a tournament category's champion role now, read from the results themselves.

The champion is the winner of the category's latest completed cycle (vacant when nobody in it
was verified). Role handlers reconcile Discord to this state instead of to the result their
job carries, so an old announcement retried late cannot give the role back to a former
champion.
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from genji_api.rows import maybe_row_as, rows_as
from genji_api.tournaments.outbox import cycle_standings, winner_of
from genji_api.tournaments.rows import Category, CompletedCycle

# How many completed cycles back a former champion may still hold the role.
RECENT_CYCLES = 10


@dataclass(frozen=True)
class ChampionState:
    cycle_id: int | None
    """The completed cycle that decides the champion; None before any cycle completed."""
    user_id: int | None
    former: list[int]
    """Winners of the category's other recent completed cycles, newest first."""


async def category(conn: asyncpg.Connection, category_id: int) -> Category | None:
    return maybe_row_as(
        Category,
        await conn.fetchrow(
            "SELECT id, name, champion_role_id, is_active FROM tournaments.categories "
            "WHERE id = $1",
            category_id,
        ),
    )


async def champion_state(conn: asyncpg.Connection, category_id: int) -> ChampionState:
    cycles = rows_as(
        CompletedCycle,
        await conn.fetch(
            "SELECT cy.id FROM tournaments.cycles cy "
            "JOIN tournaments.editions e ON e.id = cy.edition_id "
            "WHERE cy.category_id = $1 AND cy.status = 'completed' "
            "ORDER BY e.ends_at DESC, cy.id DESC LIMIT $2",
            category_id,
            RECENT_CYCLES,
        ),
    )
    if not cycles:
        return ChampionState(cycle_id=None, user_id=None, former=[])
    winners = [winner_of(await cycle_standings(conn, cycle.id)) for cycle in cycles]
    current = winners[0]
    former: list[int] = []
    for user_id in winners[1:]:
        if user_id is not None and user_id != current and user_id not in former:
            former.append(user_id)
    return ChampionState(cycle_id=cycles[0].id, user_id=current, former=former)
