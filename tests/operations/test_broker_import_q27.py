"""Q27: the broker import is rerun without duplicating a job; every source message has exactly
one recorded disposition; the dry run writes nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from uuid import uuid4

import asyncpg
import pytest
from genji_api.cutover import manifest, service
from genji_api.database import Database, create_pool
from genji_sdk import ClaimToken

from tests.support.queue_helpers import claim_next
from tests.support.testdb import Connect
from tests.support.testdb import Database as MigratedDb

from .broker_export import SECRET, Export, seed, snapshot

pytestmark = pytest.mark.queue

IMPORT_ID = "cutover-test-1"


@pytest.fixture
async def database(db: MigratedDb) -> AsyncIterator[Database]:
    pool = await create_pool(db.dsn, min_size=1, max_size=2)
    yield Database(pool)
    await pool.close()


@pytest.fixture
async def owner(connect: Connect) -> asyncpg.Connection:
    return await connect("owner")


@pytest.fixture
async def export(owner: asyncpg.Connection, tmp_path: Path) -> Export:
    return await seed(owner, tmp_path)


def _by_source(outcome: service.Outcome) -> dict[str, str]:
    return {row.source_id.split("/", 1)[1]: row.disposition for row in outcome.rows}


async def test_q27_dry_run_classifies_every_message_and_writes_nothing(
    database: Database, owner: asyncpg.Connection, export: Export
) -> None:
    before = await snapshot(owner)
    outcome = await service.inventory(database, manifest.load(export.path))
    assert _by_source(outcome) == export.expected
    assert await snapshot(owner) == before


async def test_q27_every_source_message_gets_exactly_one_disposition(
    database: Database, owner: asyncpg.Connection, export: Export
) -> None:
    outcome = await service.run_import(database, manifest.load(export.path), IMPORT_ID)
    assert outcome.recorded_now == export.messages
    rows = await owner.fetch(
        "SELECT source_id, disposition, detail FROM queue_import_dispositions WHERE import_id = $1",
        IMPORT_ID,
    )
    assert len(rows) == export.messages  # nothing lost
    assert {r["source_id"].split("/", 1)[1]: r["disposition"] for r in rows} == export.expected
    details = {r["source_id"].split("/", 1)[1]: r["detail"] for r in rows}
    # Malformed and unknown bodies are kept as they were exported; header values are not.
    assert '"payload": "{not json"' in details["api.completion.submission/4"]
    assert '"payload": "{\\"user_id\\"' in details["api.skill.recompute.requested/1"]
    assert all(SECRET not in detail for detail in details.values())


async def test_q27_transport_copies_resolve_to_one_job_that_keeps_its_public_id(
    database: Database, owner: asyncpg.Connection, export: Export
) -> None:
    outcome = await service.run_import(database, manifest.load(export.path), IMPORT_ID)
    jobs = {row.source_id.split("/", 1)[1]: row.job_id for row in outcome.rows}
    copies = [
        "api.completion.submission/1",
        "api.completion.submission/2",
        "api.completion.submission.dlq/1",
    ]
    assert {jobs[c] for c in copies} == {export.legacy_job}
    assert jobs["api.map_edit.created/1"] == export.new_job
    # An event the new producer had already enqueued resolves to that job.
    assert jobs["api.map_edit.created/2"] == export.produced_job
    imported = await owner.fetch(
        "SELECT j.id, j.status::text AS status, q.entrypoint, q.status::text AS queue_status "
        "FROM public.jobs j JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = ANY($1::uuid[])",
        [export.legacy_job, export.new_job, export.produced_job],
    )
    # Ordinary queued jobs: the worker runs them, and one that fails is held like any other.
    assert sorted((r["id"], r["queue_status"]) for r in imported) == sorted(
        (j, "queued") for j in (export.legacy_job, export.new_job, export.produced_job)
    )
    assert await owner.fetchval("SELECT count(*) FROM pgqueuer") == 3
    # The adopted legacy row no longer carries the legacy failure it was dead-lettered with.
    adopted = await owner.fetchrow(
        "SELECT status::text, error_code, error_msg, finished_at FROM public.jobs WHERE id = $1",
        export.legacy_job,
    )
    assert tuple(adopted) == ("queued", None, None, None)


async def test_q27_an_imported_job_that_fails_is_an_ordinary_held_job(
    database: Database, owner: asyncpg.Connection, export: Export
) -> None:
    await service.run_import(database, manifest.load(export.path), IMPORT_ID)
    claimed = await claim_next(owner, uuid4(), "api.completion.submission")
    assert claimed is not None and claimed.queue_manager_id is not None
    token = ClaimToken(claimed.id, claimed.queue_manager_id, claimed.updated)
    outcome = await owner.fetchval(
        "SELECT queue_fail($1, $2, $3, '{}'::interval[], $4::jsonb)",
        token.queue_job_id,
        token.queue_manager_id,
        token.claimed_at,
        json.dumps({"exception_type": "ApiError", "exception_message": "500 from the API"}),
    )
    assert outcome == "held"
    state = await owner.fetchrow(
        "SELECT j.id, recovery_job_state(j) AS state, j.retry_generation FROM public.jobs j "
        "WHERE j.queue_job_id = $1",
        token.queue_job_id,
    )
    # The legacy job kept its id and is now held like any job: the alert pipeline and the
    # recovery controls see it through the same state.
    assert (state["id"], state["state"], state["retry_generation"]) == (
        export.legacy_job,
        "held",
        0,
    )


async def test_q27_rerun_changes_no_job_and_no_disposition(
    database: Database, owner: asyncpg.Connection, export: Export
) -> None:
    loaded = manifest.load(export.path)
    await service.run_import(database, loaded, IMPORT_ID)
    after_first = await snapshot(owner)
    second = await service.run_import(database, loaded, IMPORT_ID)
    assert (second.recorded_now, second.already_recorded) == (0, export.messages)
    assert await snapshot(owner) == after_first


async def test_q27_a_legacy_claim_alone_is_not_proof_of_success(
    database: Database, owner: asyncpg.Connection, export: Export
) -> None:
    outcome = await service.run_import(database, manifest.load(export.path), IMPORT_ID)
    claimed = next(r for r in outcome.rows if r.source_id.endswith("map_edit.created.dlq/1"))
    assert (claimed.disposition, claimed.job_id) == ("needs_reconciliation", None)
    assert "claimed by the legacy consumer" in claimed.reason


async def test_q27_an_import_id_cannot_be_reused_for_another_manifest(
    database: Database, export: Export
) -> None:
    await service.run_import(database, manifest.load(export.path), IMPORT_ID)
    export.path.write_text(
        export.path.read_text().replace('"2026-12-01T09:00:00Z"', '"2026-12-01T09:30:00Z"')
    )
    with pytest.raises(service.ImportIdentityError):
        await service.run_import(database, manifest.load(export.path), IMPORT_ID)
