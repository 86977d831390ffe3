"""The broker import: a dry-run inventory, the transactional import and its report."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from uuid import UUID

import asyncpg
from genji_queue.errors import EventKeyConflictError, InvalidJobRequestError

from genji_api.cutover import repository as repo
from genji_api.cutover.classifier import Planned, classify
from genji_api.cutover.manifest import LoadedManifest
from genji_api.database import Database
from genji_api.queue.enqueue import enqueue_job

DRY_RUN_ID = "dry-run"


class ImportIdentityError(Exception):
    """The import id was already used for a different manifest, or names no import."""


@dataclass(frozen=True)
class Row:
    source_id: str
    queue: str
    disposition: str
    job_id: UUID | None
    reason: str


@dataclass(frozen=True)
class Outcome:
    import_id: str
    manifest_sha256: str
    source_messages: int
    recorded_now: int
    already_recorded: int
    rows: list[Row]

    def counts(self) -> Counter[tuple[str, str]]:
        return Counter((row.queue, row.disposition) for row in self.rows)


def _row(item: Planned) -> Row:
    return Row(item.source_id, item.queue, item.disposition, item.job_id, item.reason)


async def inventory(database: Database, loaded: LoadedManifest) -> Outcome:
    """What an import would record now, in a read-only transaction: nothing is written."""

    async def work(conn: asyncpg.Connection) -> list[Planned]:
        async with conn.transaction(readonly=True):
            return await classify(conn, loaded, DRY_RUN_ID)

    items = await database.read(work)
    return Outcome(DRY_RUN_ID, loaded.sha256, loaded.message_count, 0, 0, [_row(i) for i in items])


async def _enqueue(conn: asyncpg.Connection, item: Planned) -> None:
    assert item.event_name and item.event_key and item.payload is not None
    try:
        async with conn.transaction():
            job = await enqueue_job(
                conn,
                event_name=item.event_name,
                payload=item.payload,
                event_key=item.event_key,
                entity_key=item.entity_key,
                job_id=item.keep_id,
            )
    except EventKeyConflictError as error:
        item.disposition, item.reason = "needs_reconciliation", f"enqueue refused: {error}"
        return
    except InvalidJobRequestError as error:
        item.disposition, item.reason = "malformed", f"enqueue refused: {error}"
        return
    item.job_id = job.id


async def run_import(database: Database, loaded: LoadedManifest, import_id: str) -> Outcome:
    """Record one disposition per source message and enqueue the imported ones, in one
    transaction. A rerun with the same import id and manifest records and enqueues nothing."""

    async def work(conn: asyncpg.Connection) -> Outcome:
        known = await repo.manifest_of(conn, import_id)
        if known is not None and known != loaded.sha256:
            raise ImportIdentityError(
                f"import {import_id!r} was made from another manifest (sha256 {known})"
            )
        if known is None:
            await repo.create_import(
                conn,
                import_id=import_id,
                manifest_sha256=loaded.sha256,
                exported_at=loaded.manifest.exported_at,
                source_messages=loaded.message_count,
            )
        recorded = await repo.recorded_sources(conn, import_id)
        items = await classify(conn, loaded, import_id)
        fresh = [item for item in items if item.source_id not in recorded]
        for item in fresh:
            if item.disposition == "imported":
                await _enqueue(conn, item)
            if item.duplicate_of is not None:
                item.job_id = item.duplicate_of.job_id
                item.detail["duplicate_of"] = item.duplicate_of.source_id
            await repo.record(
                conn,
                import_id=import_id,
                source_id=item.source_id,
                source_queue=item.queue,
                disposition=item.disposition,
                job_id=item.job_id,
                event_name=item.event_name,
                event_key=item.event_key,
                detail={"reason": item.reason, **item.detail},
            )
        return Outcome(
            import_id,
            loaded.sha256,
            loaded.message_count,
            len(fresh),
            len(items) - len(fresh),
            await report_rows(conn, import_id),
        )

    return await database.transaction(work)


async def report_rows(conn: asyncpg.Connection, import_id: str) -> list[Row]:
    rows = await repo.dispositions(conn, import_id)
    return [
        Row(
            r.source_id,
            r.source_queue,
            r.disposition,
            r.job_id,
            json.loads(r.detail).get("reason", "") if r.detail else "",
        )
        for r in rows
    ]


async def report(database: Database, import_id: str) -> Outcome:
    async def work(conn: asyncpg.Connection) -> Outcome:
        row = await repo.import_row(conn, import_id)
        if row is None:
            raise ImportIdentityError(f"no import {import_id!r}")
        rows = await report_rows(conn, import_id)
        return Outcome(import_id, row.manifest_sha256, row.source_messages, 0, len(rows), rows)

    return await database.read(work)
