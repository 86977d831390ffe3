"""The daily log pruning: one process at a time, once a day, recorded; and the API worker's loop
that runs it."""

import asyncio
from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_api.database import Database
from genji_api.retention.schedule import run_retention_schedule
from genji_queue.retention_schedule import queue_retention_run

from tests.support.queue_helpers import claim_next, enqueue_xp
from tests.support.testdb import Connect
from tests.support.testdb import Database as MigratedDatabase

pytestmark = pytest.mark.queue

DAY = timedelta(days=1)


async def _finished_long_ago(conn: asyncpg.Connection, count: int) -> list[UUID]:
    jobs = []
    for n in range(count):
        jobs.append((await enqueue_xp(conn, f"xp:old-{n}", user_id=n + 1, grant_id=n + 1)).id)
        claimed = await claim_next(conn, uuid4())
        assert claimed is not None
        assert await conn.fetchval(
            "SELECT queue_complete($1, $2, $3)",
            claimed.id,
            claimed.queue_manager_id,
            claimed.updated,
        )
    await conn.execute("UPDATE pgqueuer_log SET created = created - interval '31 days'")
    return jobs


async def test_a_due_run_prunes_in_batches_records_itself_and_is_not_due_again(
    connect: Connect,
) -> None:
    conn = await connect()
    jobs = await _finished_long_ago(conn, 3)
    run = await queue_retention_run(conn, every=DAY, batch=2)
    assert (run.ran, run.pruned, run.batches) == (True, 3, 2)
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer_log") == 0
    summarized = await conn.fetchval(
        "SELECT count(*) FROM jobs WHERE id = ANY($1) AND summarized_at IS NOT NULL", jobs
    )
    assert summarized == 3
    recorded = await conn.fetchrow("SELECT * FROM queue_maintenance WHERE task = 'prune_logs'")
    assert recorded["last_started_at"] == run.started_at
    assert recorded["last_result"] == '{"pruned": 3, "batches": 2, "retention": "30 days"}'

    await _finished_long_ago_more(conn)
    again = await queue_retention_run(conn, every=DAY)
    assert (again.ran, again.pruned, again.started_at) == (False, 0, run.started_at)
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer_log") == 2  # picked, successful


async def _finished_long_ago_more(conn: asyncpg.Connection) -> None:
    job = await enqueue_xp(conn, "xp:later", user_id=99, grant_id=99)
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None
    await conn.fetchval(
        "SELECT queue_complete($1, $2, $3)", claimed.id, claimed.queue_manager_id, claimed.updated
    )
    await conn.execute(
        "UPDATE pgqueuer_log SET created = created - interval '31 days' "
        "WHERE job_id = (SELECT queue_job_id FROM jobs WHERE id = $1)",
        job.id,
    )


async def test_while_one_process_prunes_another_returns_at_once(connect: Connect) -> None:
    first, second = await connect(), await connect()
    await _finished_long_ago(first, 1)
    transaction = first.transaction()
    await transaction.start()
    running = await queue_retention_run(first, every=DAY)
    assert running.ran
    other = await asyncio.wait_for(queue_retention_run(second, every=timedelta(0)), 5)
    assert (other.ran, other.pruned) == (False, 0)
    await transaction.commit()
    assert await second.fetchval("SELECT count(*) FROM pgqueuer_log") == 0


async def test_the_api_workers_loop_runs_the_pruning_and_stops(
    connect: Connect, db: MigratedDatabase
) -> None:
    conn = await connect()
    await _finished_long_ago(conn, 2)
    pool = await asyncpg.create_pool(db.dsn, min_size=1, max_size=2)
    try:
        stop = asyncio.Event()
        loop = asyncio.create_task(
            run_retention_schedule(Database(pool), timedelta(days=30), 0.05, stop)
        )
        for _ in range(200):
            if await conn.fetchval("SELECT count(*) FROM pgqueuer_log") == 0:
                break
            await asyncio.sleep(0.05)
        stop.set()
        await asyncio.wait_for(loop, 5)
    finally:
        await pool.close()
    recorded = await conn.fetchval(
        "SELECT last_result ->> 'pruned' FROM queue_maintenance WHERE task = 'prune_logs'"
    )
    assert recorded == "2"
