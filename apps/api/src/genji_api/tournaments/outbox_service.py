"""The tournament outbox drain: announcements, results and rewards in one transaction.

One drain is one transaction on one connection. Ended editions are announced (and rewarded)
from their state; then every unpublished outbox row becomes its job. Every XP grant, its
api.xp.grant job, each announcement job and the acknowledgement of its source (the edition's
status or the row's `published`) commit together or not at all, so nothing is announced after
commit and a rerun finds nothing left to do.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import asyncpg
import msgspec
from genji_sdk.payloads import (
    TournamentCycleCompletedEvent,
    TournamentCycleStartedEvent,
    TournamentEditionResultsEvent,
    TournamentRolloverEvent,
)

from genji_api.database import Database
from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_job
from genji_api.rows import rows_as
from genji_api.tournaments import outbox
from genji_api.tournaments.edition import edition_entity_key, started_cycles
from genji_api.tournaments.rewards import grant_edition_rewards
from genji_api.tournaments.rows import AwaitingEdition

log = logging.getLogger("genji.api.tournaments")


@dataclass
class DrainReport:
    start_announced: list[int] = field(default_factory=list)
    """Editions whose next start was announced while their results were still pending."""
    completed: list[int] = field(default_factory=list)
    """Editions completed with a combined rollover (results and next start)."""
    results_deferred: list[int] = field(default_factory=list)
    """Editions completed by writing an edition_results outbox row."""
    published: list[int] = field(default_factory=list)
    """Outbox rows turned into jobs and acknowledged."""
    skipped: list[int] = field(default_factory=list)
    """Outbox rows of an event type nothing announces; left unpublished."""
    event_keys: list[str] = field(default_factory=list)
    xp_grants: int = 0


async def _next_started(
    conn: asyncpg.Connection, edition_id: int
) -> list[TournamentCycleStartedEvent]:
    next_id = await outbox.next_edition_id(conn, edition_id)
    return [] if next_id is None else await started_cycles(conn, next_id)


async def _rollover(
    conn: asyncpg.Connection,
    event: TournamentRolloverEvent,
    key: str,
    report: DrainReport,
    trace: Trace | None,
) -> None:
    await enqueue_job(
        conn,
        payload=event,
        event_key=key,
        entity_key=edition_entity_key(event.edition_id),
        trace=trace,
    )
    report.event_keys.append(key)


async def _process_awaiting_results(
    conn: asyncpg.Connection, report: DrainReport, trace: Trace | None
) -> None:
    editions = rows_as(
        AwaitingEdition,
        await conn.fetch(
            "SELECT id, start_announced FROM tournaments.editions "
            "WHERE status = 'awaiting_results' ORDER BY ends_at, id FOR UPDATE SKIP LOCKED"
        ),
    )
    for edition in editions:
        edition_id = edition.id
        pending = await outbox.pending_verifications(conn, edition_id)
        if not edition.start_announced:
            if pending > 0:
                await conn.execute(
                    "UPDATE tournaments.editions SET start_announced = true WHERE id = $1",
                    edition_id,
                )
                event = TournamentRolloverEvent(
                    edition_id=edition_id,
                    started=await _next_started(conn, edition_id),
                    results_pending=True,
                )
                await _rollover(conn, event, outbox.rollover_key(edition_id), report, trace)
                report.start_announced.append(edition_id)
                continue
            results = await outbox.edition_results(conn, edition_id)
            report.xp_grants += await grant_edition_rewards(conn, edition_id, results, trace)
            event = TournamentRolloverEvent(
                edition_id=edition_id,
                results=results,
                started=await _next_started(conn, edition_id),
            )
            await _rollover(conn, event, outbox.rollover_key(edition_id), report, trace)
            await outbox.complete_edition(conn, edition_id)
            report.completed.append(edition_id)
        elif pending == 0:
            results = await outbox.edition_results(conn, edition_id)
            await outbox.write_transition(
                conn,
                edition_id,
                "edition_results",
                TournamentEditionResultsEvent(edition_id=edition_id, results=results),
            )
            await outbox.complete_edition(conn, edition_id)
            report.results_deferred.append(edition_id)


async def _drain_transitions(
    conn: asyncpg.Connection, report: DrainReport, trace: Trace | None
) -> None:
    for row in await outbox.lock_unpublished(conn):
        edition_id = row.edition_id
        payload: msgspec.Struct
        results: list[TournamentCycleCompletedEvent]
        if row.event_type == "edition_rollover":
            rollover = outbox.decode_payload(row.payload, TournamentRolloverEvent)
            key = outbox.bootstrap_key(edition_id)
            payload, results = rollover, rollover.results
        elif row.event_type == "edition_results":
            deferred = outbox.decode_payload(row.payload, TournamentEditionResultsEvent)
            key = outbox.results_key(edition_id)
            payload, results = deferred, deferred.results
        else:
            # cycle_started / cycle_completed: allowed by the table, announced by nothing.
            log.warning("tournament outbox row %d has type %s", row.id, row.event_type)
            report.skipped.append(row.id)
            continue
        if results:
            report.xp_grants += await grant_edition_rewards(conn, edition_id, results, trace)
        await enqueue_job(
            conn,
            payload=payload,
            event_key=key,
            entity_key=edition_entity_key(edition_id),
            trace=trace,
        )
        report.event_keys.append(key)
        if await outbox.mark_published(conn, row.id):
            report.published.append(row.id)


async def drain_tournament_outbox(database: Database, trace: Trace | None = None) -> DrainReport:
    """Announce ended editions and publish every unpublished outbox row, in one transaction."""

    async def work(conn: asyncpg.Connection) -> DrainReport:
        report = DrainReport()  # fresh on each attempt: a retried transaction starts over
        await _process_awaiting_results(conn, report, trace)
        await _drain_transitions(conn, report, trace)
        return report

    return await database.transaction(work)
