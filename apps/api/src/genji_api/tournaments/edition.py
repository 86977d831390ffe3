"""Editions and their cycles: the edition boundary and the first edition.

The boundary (`process_edition_transitions`) runs on the API's schedule instead of a database
cron job. It only moves state: the ending edition waits for its results and the next one starts.
Announcements and rewards belong to the outbox drain, which reads that state.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import asyncpg
from genji_sdk.payloads import TournamentCycleStartedEvent, TournamentRolloverEvent

from genji_api.database import Database
from genji_api.errors import ConflictError
from genji_api.rows import row_as, rows_as
from genji_api.tournaments.outbox import write_transition
from genji_api.tournaments.rows import (
    Anchor,
    Cadence,
    CategoryId,
    EndingEdition,
    PlayedMap,
    StartedCycle,
)

log = logging.getLogger("genji.api.tournaments")

# Serialises everything that creates or replaces cycles: the boundary, bootstrap and reroll.
TRANSITION_LOCK = 2025070100

CADENCE: dict[str, timedelta] = {"weekly": timedelta(days=7), "biweekly": timedelta(days=14)}


@dataclass(frozen=True)
class EditionTransition:
    ended_edition_id: int
    next_edition_id: int | None
    """None while transitions are paused."""


@dataclass(frozen=True)
class BootstrappedEdition:
    edition_id: int
    transition_id: int
    cycle_ids: list[int]
    started_at: datetime
    ends_at: datetime


def edition_entity_key(edition_id: int) -> str:
    return f"tournament-edition:{edition_id}"


async def lock_transitions(conn: asyncpg.Connection) -> None:
    await conn.execute("SELECT pg_advisory_xact_lock($1)", TRANSITION_LOCK)


async def eligible_map(
    conn: asyncpg.Connection,
    category_id: int,
    *,
    avoid: Sequence[int] = (),
    exclude: int | None = None,
) -> int | None:
    """The lowest-id approved official live map the category accepts, preferring unused ones."""
    map_id: int | None = await conn.fetchval(
        """
        SELECT m.id
        FROM core.maps m
        JOIN tournaments.categories c ON c.id = $1
        WHERE m.playtesting = 'Approved' AND m.official AND NOT m.archived
          AND (cardinality(c.difficulties) = 0 OR m.difficulty = ANY (c.difficulties))
          AND m.id IS DISTINCT FROM $3
        ORDER BY m.id = ANY ($2::integer[]), m.id
        LIMIT 1
        """,
        category_id,
        list(avoid),
        exclude,
    )
    return map_id


async def _create_edition(
    conn: asyncpg.Connection, started_at: datetime, ends_at: datetime
) -> tuple[int, list[int]]:
    """An active edition with one active cycle per active category that has an eligible map."""
    edition_id: int = await conn.fetchval(
        "INSERT INTO tournaments.editions (started_at, ends_at) VALUES ($1, $2) RETURNING id",
        started_at,
        ends_at,
    )
    categories = rows_as(
        CategoryId,
        await conn.fetch("SELECT id FROM tournaments.categories WHERE is_active ORDER BY id"),
    )
    cycle_ids: list[int] = []
    for category in categories:
        # Prefer a map other than the one the category played last.
        last = rows_as(
            PlayedMap,
            await conn.fetch(
                "SELECT map_id FROM tournaments.cycles "
                "WHERE category_id = $1 ORDER BY id DESC LIMIT 1",
                category.id,
            ),
        )
        map_id = await eligible_map(conn, category.id, avoid=[r.map_id for r in last])
        if map_id is None:
            log.warning("tournament category %d has no eligible map; no cycle", category.id)
            continue
        cycle_ids.append(
            await conn.fetchval(
                "INSERT INTO tournaments.cycles "
                "(edition_id, category_id, map_id, status, started_at) "
                "VALUES ($1, $2, $3, 'active', $4) RETURNING id",
                edition_id,
                category.id,
                map_id,
                started_at,
            )
        )
    return edition_id, cycle_ids


async def started_cycles(
    conn: asyncpg.Connection, edition_id: int, *, cycle_ids: Sequence[int] | None = None
) -> list[TournamentCycleStartedEvent]:
    """The edition's live cycles (or just `cycle_ids`) as announced."""
    records = await conn.fetch(
        """
        SELECT cy.id, cy.category_id, cy.map_id, m.code, m.map_name,
               coalesce(cy.started_at, e.started_at) AS started_at, e.ends_at
        FROM tournaments.cycles cy
        JOIN tournaments.editions e ON e.id = cy.edition_id
        JOIN core.maps m ON m.id = cy.map_id
        WHERE cy.edition_id = $1 AND cy.status = 'active'
          AND ($2::integer[] IS NULL OR cy.id = ANY ($2))
        ORDER BY cy.category_id, cy.id
        """,
        edition_id,
        None if cycle_ids is None else list(cycle_ids),
    )
    return [
        TournamentCycleStartedEvent(
            cycle_id=r.id,
            category_id=r.category_id,
            map_id=r.map_id,
            map_code=r.code,
            map_name=r.map_name,
            started_at=r.started_at,
            ends_at=r.ends_at,
        )
        for r in rows_as(StartedCycle, records)
    ]


async def end_due_edition(conn: asyncpg.Connection) -> EditionTransition | None:
    """End the oldest active edition past its end and, unless paused, start the next one."""
    await lock_transitions(conn)
    record = await conn.fetchrow(
        "SELECT id, ends_at FROM tournaments.editions "
        "WHERE status = 'active' AND ends_at <= now() ORDER BY ends_at, id LIMIT 1 FOR UPDATE"
    )
    if record is None:
        return None
    edition = row_as(EndingEdition, record)
    await conn.execute(
        "UPDATE tournaments.cycles SET status = 'finalizing', ended_at = $2 "
        "WHERE edition_id = $1 AND status = 'active'",
        edition.id,
        edition.ends_at,
    )
    await conn.execute(
        "UPDATE tournaments.editions SET status = 'awaiting_results' WHERE id = $1",
        edition.id,
    )
    config = row_as(
        Cadence,
        await conn.fetchrow(
            "SELECT cadence, transitions_paused FROM tournaments.config WHERE id = 1"
        ),
    )
    if config.transitions_paused:
        return EditionTransition(ended_edition_id=edition.id, next_edition_id=None)
    next_id, _ = await _create_edition(
        conn, edition.ends_at, edition.ends_at + CADENCE[config.cadence]
    )
    return EditionTransition(ended_edition_id=edition.id, next_edition_id=next_id)


async def process_edition_transitions(database: Database) -> EditionTransition | None:
    """The edition boundary in its own transaction; None when no edition was due."""
    return await database.transaction(end_due_edition)


def next_anchor(now: datetime, weekday: int, at: time, tz: str) -> datetime:
    """The first anchor instant after `now`: `weekday` (0 = Monday) at `at` in zone `tz`."""
    local = now.astimezone(ZoneInfo(tz))
    candidate = datetime.combine(local.date(), at, tzinfo=ZoneInfo(tz))
    candidate += timedelta(days=(weekday - local.weekday()) % 7)
    if candidate <= local:
        candidate += timedelta(days=7)
    return candidate


async def bootstrap_edition(database: Database) -> BootstrappedEdition:
    """Create the first edition and its start announcement (an outbox row) together."""

    async def work(conn: asyncpg.Connection) -> BootstrappedEdition:
        await lock_transitions(conn)
        if await conn.fetchval(
            "SELECT EXISTS (SELECT 1 FROM tournaments.editions WHERE status = 'active')"
        ):
            raise ConflictError("An active tournament edition already exists.")
        config = row_as(
            Anchor,
            await conn.fetchrow(
                "SELECT anchor_weekday, anchor_time, anchor_tz, now() AS now "
                "FROM tournaments.config WHERE id = 1"
            ),
        )
        started_at = config.now
        ends_at = next_anchor(
            started_at, config.anchor_weekday, config.anchor_time, config.anchor_tz
        )
        edition_id, cycle_ids = await _create_edition(conn, started_at, ends_at)
        event = TournamentRolloverEvent(
            edition_id=edition_id, started=await started_cycles(conn, edition_id)
        )
        transition_id = await write_transition(conn, edition_id, "edition_rollover", event)
        return BootstrappedEdition(
            edition_id=edition_id,
            transition_id=transition_id,
            cycle_ids=cycle_ids,
            started_at=started_at,
            ends_at=ends_at,
        )

    return await database.transaction(work)
