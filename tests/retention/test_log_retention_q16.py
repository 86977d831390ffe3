"""Q16: pruning old queue logs keeps the status contract through retained summaries."""

from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_queue.status import job_public_status

from tests.support.queue_helpers import claim_next, enqueue_xp
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


async def _completed(conn: asyncpg.Connection, key: str) -> UUID:
    job = await enqueue_xp(conn, key)
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None
    assert await conn.fetchval(
        "SELECT queue_complete($1, $2, $3)", claimed.id, claimed.queue_manager_id, claimed.updated
    )
    return job.id


async def _age_logs(conn: asyncpg.Connection, days: int = 31) -> None:
    await conn.execute(f"UPDATE pgqueuer_log SET created = created - interval '{days} days'")


async def test_q16_pruned_success_still_reads_succeeded_from_its_summary(connect: Connect) -> None:
    conn = await connect()
    job_id = await _completed(conn, "xp:1")
    await _age_logs(conn)
    assert await conn.fetchval("SELECT queue_prune_logs()") == 1
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer_log") == 0
    row = await conn.fetchrow(
        "SELECT status, summarized_at, finished_at FROM jobs WHERE id = $1", job_id
    )
    assert row is not None and row["status"] == "succeeded" and row["summarized_at"] is not None
    assert (await job_public_status(conn, job_id)).status == "succeeded"


async def test_q16_recent_logs_are_kept(connect: Connect) -> None:
    conn = await connect()
    await _completed(conn, "xp:1")
    assert await conn.fetchval("SELECT queue_prune_logs()") == 0
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer_log") == 2  # picked, successful


async def test_q16_active_retrying_and_held_work_is_never_pruned(connect: Connect) -> None:
    conn = await connect()
    queued = await enqueue_xp(conn, "xp:queued")
    held = await enqueue_xp(conn, "xp:held", grant_id=2)
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None
    await conn.execute(
        'SELECT queue_hold($1, $2, $3, \'{"exception_type": "E"}\')',
        claimed.id,
        claimed.queue_manager_id,
        claimed.updated,
    )
    # A stale 'canceled' entry from long ago must not make an active job look finished.
    await conn.execute(
        """INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
           SELECT id, 'canceled', entrypoint, priority FROM pgqueuer"""
    )
    await _age_logs(conn, 90)
    before = await conn.fetchval("SELECT count(*) FROM pgqueuer_log")
    assert await conn.fetchval("SELECT queue_prune_logs()") == 0
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer_log") == before
    statuses = {(await job_public_status(conn, j.id)).status for j in (queued, held)}
    assert statuses == {"queued", "failed"}


async def test_q16_job_with_an_uncertain_effect_is_never_pruned(connect: Connect) -> None:
    conn = await connect()
    job_id = await _completed(conn, "xp:1")
    await conn.execute(
        "INSERT INTO effect_bindings (job_id, effect_key, destination, state) VALUES ($1, 'send', 'dm:1', 'uncertain')",
        job_id,
    )
    await _age_logs(conn)
    assert await conn.fetchval("SELECT queue_prune_logs()") == 0


async def test_q16_retention_and_batch_are_parameters(connect: Connect) -> None:
    conn = await connect()
    for n in range(3):
        await _completed(conn, f"xp:{n}")
    await _age_logs(conn, 8)
    assert await conn.fetchval("SELECT queue_prune_logs(interval '30 days')") == 0
    assert await conn.fetchval("SELECT queue_prune_logs(interval '7 days', 2)") == 2
    assert await conn.fetchval("SELECT queue_prune_logs(interval '7 days', 2)") == 1
