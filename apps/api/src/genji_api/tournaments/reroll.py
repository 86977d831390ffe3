"""Operator actions on a running tournament: reroll a live map, force the results out."""

from __future__ import annotations

import asyncpg
from genji_sdk.payloads import TournamentEditionResultsEvent, TournamentRolloverEvent

from genji_api.database import Database
from genji_api.errors import ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_job
from genji_api.rows import maybe_row_as, rows_as
from genji_api.tournaments import outbox
from genji_api.tournaments.admin_models import PublishResultsResponse, RerollResponse
from genji_api.tournaments.edition import (
    edition_entity_key,
    eligible_map,
    lock_transitions,
    started_cycles,
)
from genji_api.tournaments.rows import EditionState, LiveCycle, PlayedMap


async def reroll_active_cycle(
    database: Database, category_id: int, trace: Trace | None = None
) -> RerollResponse:
    """Replace the category's live cycle with one on another map and announce the new map."""

    async def work(conn: asyncpg.Connection) -> RerollResponse:
        await lock_transitions(conn)
        current = maybe_row_as(
            LiveCycle,
            await conn.fetchrow(
                "SELECT cy.id, cy.edition_id, cy.map_id FROM tournaments.cycles cy "
                "JOIN tournaments.editions e ON e.id = cy.edition_id "
                "WHERE e.status = 'active' AND cy.category_id = $1 AND cy.status = 'active' "
                "FOR UPDATE OF cy",
                category_id,
            ),
        )
        if current is None:
            if not await conn.fetchval(
                "SELECT EXISTS (SELECT 1 FROM tournaments.categories WHERE id = $1)", category_id
            ):
                raise NotFoundError("Category not found.")
            raise NotFoundError("No active cycle for this category.")
        played = rows_as(
            PlayedMap,
            await conn.fetch(
                "SELECT map_id FROM tournaments.cycles WHERE edition_id = $1 AND category_id = $2",
                current.edition_id,
                category_id,
            ),
        )
        map_id = await eligible_map(
            conn, category_id, avoid=[r.map_id for r in played], exclude=current.map_id
        )
        if map_id is None:
            raise ConflictError("No other eligible map for this category.")
        await conn.execute(
            "UPDATE tournaments.cycles SET status = 'replaced', ended_at = now() WHERE id = $1",
            current.id,
        )
        cycle_id: int = await conn.fetchval(
            "INSERT INTO tournaments.cycles (edition_id, category_id, map_id, status, started_at) "
            "VALUES ($1, $2, $3, 'active', now()) RETURNING id",
            current.edition_id,
            category_id,
            map_id,
        )
        await conn.execute(
            "UPDATE tournaments.cycles SET replaced_by = $2 WHERE id = $1", current.id, cycle_id
        )
        started = await started_cycles(conn, current.edition_id, cycle_ids=[cycle_id])
        job = await enqueue_job(
            conn,
            payload=TournamentRolloverEvent(edition_id=current.edition_id, started=started),
            event_key=outbox.reroll_key(cycle_id),
            entity_key=edition_entity_key(current.edition_id),
            trace=trace,
        )
        return RerollResponse(
            edition_id=current.edition_id,
            replaced_cycle_id=current.id,
            cycle_id=cycle_id,
            map_id=map_id,
            map_code=started[0].map_code,
            job_id=job.id,
        )

    return await database.transaction(work)


async def publish_results(database: Database, edition_id: int) -> PublishResultsResponse:
    """Write the edition's results row now (the next drain grants and announces it)."""

    async def work(conn: asyncpg.Connection) -> PublishResultsResponse:
        edition = maybe_row_as(
            EditionState,
            await conn.fetchrow(
                "SELECT status, start_announced FROM tournaments.editions WHERE id = $1 FOR UPDATE",
                edition_id,
            ),
        )
        if edition is None:
            raise NotFoundError("Edition not found.")
        if edition.status == "active":
            raise ConflictError("Edition is still active.")
        if edition.status == "awaiting_results" and not edition.start_announced:
            # Its end (and the next start) is announced by the drain, results included.
            raise ConflictError("The edition's end has not been announced yet.")
        if await conn.fetchval(
            "SELECT EXISTS (SELECT 1 FROM tournaments.pending_transitions "
            "WHERE edition_id = $1 AND event_type = 'edition_results')",
            edition_id,
        ):
            raise ConflictError("Results for this edition were already published.")
        results = await outbox.edition_results(conn, edition_id)
        transition_id = await outbox.write_transition(
            conn,
            edition_id,
            "edition_results",
            TournamentEditionResultsEvent(edition_id=edition_id, results=results),
        )
        await outbox.complete_edition(conn, edition_id)
        return PublishResultsResponse(edition_id=edition_id, transition_id=transition_id)

    return await database.transaction(work)
