"""The outbox's rows and what they announce: standings, results and unpublished transitions.

`tournaments.pending_transitions` is the durable handoff from the tournament rules to the
queue; the drain (outbox_service) turns each row into a job in the transaction that marks it
published.
"""

from __future__ import annotations

import json
from typing import Literal, TypeVar

import asyncpg
import msgspec
from genji_sdk.payloads import (
    TournamentCycleCompletedEvent,
    TournamentEditionResultsEvent,
    TournamentLeaderboardEntry,
    TournamentRolloverEvent,
)

from genji_api.rows import rows_as
from genji_api.tournaments.rows import PlayedCycle, Standing, Transition

TransitionType = Literal["edition_rollover", "edition_results"]
PAYLOAD_TYPES: dict[str, type[msgspec.Struct]] = {
    "edition_rollover": TournamentRolloverEvent,
    "edition_results": TournamentEditionResultsEvent,
}

S = TypeVar("S", bound=msgspec.Struct)


def rollover_key(edition_id: int) -> str:
    """The end of an edition: combined results and next start, or start-only while pending."""
    return f"tournament:rollover:{edition_id}"


def bootstrap_key(edition_id: int) -> str:
    return f"tournament:rollover:{edition_id}:start"


def results_key(edition_id: int) -> str:
    return f"tournament:results:{edition_id}"


def reroll_key(new_cycle_id: int) -> str:
    return f"tournament:active-reroll:{new_cycle_id}"


async def cycle_standings(
    conn: asyncpg.Connection, cycle_id: int
) -> list[TournamentLeaderboardEntry]:
    """Each user's best non-rejected run, ranked: verified, with video, fastest, earliest."""
    records = await conn.fetch(
        """
        WITH best AS (
            SELECT DISTINCT ON (c.user_id)
                   c.user_id, c.time, c.verified, c.completion, c.inserted_at
            FROM tournaments.completions c
            WHERE c.cycle_id = $1 AND c.status <> 'rejected'
            ORDER BY c.user_id, c.verified DESC, c.completion DESC, c.time, c.inserted_at
        )
        SELECT RANK() OVER (
                   ORDER BY b.verified DESC, b.completion DESC, b.time, b.inserted_at
               ) AS rank,
               b.user_id, coalesce(u.global_name, u.nickname) AS name,
               b.time, b.verified, b.completion
        FROM best b
        JOIN core.users u ON u.id = b.user_id
        ORDER BY rank, b.user_id
        """,
        cycle_id,
    )
    return [
        TournamentLeaderboardEntry(
            rank=r.rank,
            user_id=r.user_id,
            name=r.name,
            time=float(r.time),
            verified=r.verified,
            completion=r.completion,
        )
        for r in rows_as(Standing, records)
    ]


def winner_of(standings: list[TournamentLeaderboardEntry]) -> int | None:
    """The cycle's winner: first place with a verified run; None when nobody was verified."""
    return next((e.user_id for e in standings if e.rank == 1 and e.verified), None)


async def edition_results(
    conn: asyncpg.Connection, edition_id: int
) -> list[TournamentCycleCompletedEvent]:
    """Standings of every cycle the edition played (replaced cycles are not results)."""
    cycles = rows_as(
        PlayedCycle,
        await conn.fetch(
            "SELECT id, category_id FROM tournaments.cycles "
            "WHERE edition_id = $1 AND status IN ('active', 'finalizing', 'completed') "
            "ORDER BY category_id, id",
            edition_id,
        ),
    )
    results = []
    for cycle in cycles:
        standings = await cycle_standings(conn, cycle.id)
        results.append(
            TournamentCycleCompletedEvent(
                cycle_id=cycle.id,
                category_id=cycle.category_id,
                standings=standings,
                winner_user_id=winner_of(standings),
            )
        )
    return results


async def pending_verifications(conn: asyncpg.Connection, edition_id: int) -> int:
    """Runs of the edition's played cycles still waiting for a verdict."""
    count: int = await conn.fetchval(
        "SELECT count(*) FROM tournaments.completions c "
        "JOIN tournaments.cycles cy ON cy.id = c.cycle_id "
        "WHERE cy.edition_id = $1 AND cy.status IN ('active', 'finalizing') "
        "AND c.status = 'pending'",
        edition_id,
    )
    return count


async def next_edition_id(conn: asyncpg.Connection, ended_edition_id: int) -> int | None:
    """The active edition that followed `ended_edition_id`, if transitions were not paused."""
    edition_id: int | None = await conn.fetchval(
        "SELECT n.id FROM tournaments.editions n, tournaments.editions e "
        "WHERE e.id = $1 AND n.status = 'active' AND n.started_at >= e.ends_at "
        "ORDER BY n.started_at, n.id LIMIT 1",
        ended_edition_id,
    )
    return edition_id


async def complete_edition(conn: asyncpg.Connection, edition_id: int) -> None:
    await conn.execute(
        "UPDATE tournaments.cycles SET status = 'completed', ended_at = coalesce(ended_at, now()) "
        "WHERE edition_id = $1 AND status IN ('active', 'finalizing')",
        edition_id,
    )
    await conn.execute(
        "UPDATE tournaments.editions SET status = 'completed' WHERE id = $1", edition_id
    )


async def write_transition(
    conn: asyncpg.Connection, edition_id: int, event_type: TransitionType, payload: msgspec.Struct
) -> int:
    transition_id: int = await conn.fetchval(
        "INSERT INTO tournaments.pending_transitions (edition_id, event_type, payload) "
        "VALUES ($1, $2, $3) RETURNING id",
        edition_id,
        event_type,
        msgspec.to_builtins(payload),  # the pool's jsonb codec encodes it
    )
    return transition_id


async def lock_unpublished(conn: asyncpg.Connection) -> list[Transition]:
    """Unpublished rows no other drain holds, oldest first, locked until this one commits."""
    return rows_as(
        Transition,
        await conn.fetch(
            "SELECT id, edition_id, event_type, payload FROM tournaments.pending_transitions "
            "WHERE NOT published ORDER BY created_at, id FOR UPDATE SKIP LOCKED"
        ),
    )


async def mark_published(conn: asyncpg.Connection, transition_id: int) -> bool:
    status: str = await conn.execute(
        "UPDATE tournaments.pending_transitions SET published = true "
        "WHERE id = $1 AND NOT published",
        transition_id,
    )
    return status == "UPDATE 1"


def decode_payload(payload: object, kind: type[S]) -> S:
    """A stored payload as its SDK struct; a payload of another shape raises."""
    raw = payload if isinstance(payload, str) else json.dumps(payload)
    return msgspec.json.decode(raw, type=kind)
