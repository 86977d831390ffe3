"""A worker with a batch above 1 claims up to its batch of events at once, and a claim first
writes the successes PGQueuer still buffers, whose jobs hold their events until then."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from uuid import uuid4

import asyncpg
import msgspec
import pytest
from genji_sdk import REGISTRY, JobContext
from genji_worker.claims import FencedQueries
from genji_worker.driver import DeadlineDriver
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor
from pgqueuer.core.buffers import JobStatusLogBuffer
from pgqueuer.ports.repository import EntrypointExecutionParameter

from tests.support.harness import eventually
from tests.support.queue_helpers import enqueue_sample, register_worker
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue

BOT_EVENTS = [spec.name for spec in REGISTRY.owned_by("bot")]
THREE = BOT_EVENTS[:3]
# What PGQueuer passes: every entrypoint's limit is 1, so its batch is cut to 1.
LIMIT_ONE = {name: EntrypointExecutionParameter(concurrency_limit=1) for name in BOT_EVENTS}
STALE = timedelta(seconds=60)


async def test_a_claim_takes_the_configured_batch_from_distinct_events(
    db: Database, connect: Connect
) -> None:
    owner = await connect()
    for n, event in enumerate(THREE):
        await enqueue_sample(owner, event, f"wide:{n}")
    release = asyncio.Event()
    running: list[str] = []

    async def blocks(payload: msgspec.Struct, context: JobContext) -> None:
        running.append(context.event_name)
        await release.wait()

    supervisor = QueueSupervisor(
        owner="bot",
        handlers=dict.fromkeys(BOT_EVENTS, blocks),
        connect=lambda: asyncpg.connect(db.worker_dsn),
        settings=WorkerSettings(
            batch_size=3, active_jobs=6, polling_fallback=timedelta(seconds=0.2)
        ),
    )

    async def all_running() -> bool:
        return len(running) == len(THREE)

    task = asyncio.create_task(supervisor.run())
    try:
        await eventually(all_running, 20, "the three jobs to run")
        # One claim is one transaction: its claim log rows share the transaction's start time.
        claims = await owner.fetchval(
            "SELECT count(DISTINCT created) FROM pgqueuer_log WHERE status = 'picked'"
        )
        assert claims == 1
    finally:
        release.set()
        supervisor.request_stop()
        await asyncio.wait_for(task, 20)
    assert sorted(running) == sorted(THREE)
    queries = supervisor.outages.queries
    # The manager handed its buffer of results to the adapter, which writes it before claims.
    assert queries is not None and queries.completions is not None


async def test_a_buffered_success_is_written_before_the_next_claim(connect: Connect) -> None:
    owner, conn = await connect(), await connect("worker")
    event = BOT_EVENTS[0]
    await enqueue_sample(owner, event, "wide:first")
    await enqueue_sample(owner, event, "wide:second")
    queries = FencedQueries(DeadlineDriver(conn, timedelta(seconds=5)))
    manager = await register_worker(conn, uuid4())
    [first] = await queries.dequeue(1, LIMIT_ONE, manager, 2, STALE)
    # Never entered, so nothing but the claim flushes it.
    buffer = JobStatusLogBuffer(max_size=10, repository=queries)
    queries.completions = buffer
    await buffer.add((first, "successful", None))

    claimed = await queries.dequeue(1, LIMIT_ONE, manager, 2, STALE)

    assert buffer.events.empty()
    assert await owner.fetchval("SELECT count(*) FROM pgqueuer WHERE id = $1", first.id) == 0
    assert [job.entrypoint for job in claimed] == [event]
    assert claimed[0].id != first.id
    assert (
        await owner.fetchval(
            "SELECT status::text FROM pgqueuer_log WHERE job_id = $1 ORDER BY id DESC LIMIT 1",
            first.id,
        )
        == "successful"
    )


async def test_buffered_results_are_written_once_every_execution_has_finished(
    connect: Connect,
) -> None:
    owner, conn = await connect(), await connect("worker")
    for n, event in enumerate(THREE[:2]):
        await enqueue_sample(owner, event, f"wide:{n}")
    queries = FencedQueries(DeadlineDriver(conn, timedelta(seconds=5)), claim_batch=2)
    manager = await register_worker(conn, uuid4())
    first, second = await queries.dequeue(1, LIMIT_ONE, manager, 4, STALE)
    buffer = JobStatusLogBuffer(max_size=10, repository=queries)
    queries.completions = buffer

    async def queued() -> set[int]:
        return {row["id"] for row in await owner.fetch("SELECT id FROM pgqueuer")}

    await buffer.add((first, "successful", None))
    await queries.complete_when_idle()
    # The other execution still runs: its result may share the write.
    assert await queued() == {first.id, second.id}

    await buffer.add((second, "successful", None))
    await queries.complete_when_idle()
    assert await queued() == set()
    assert buffer.events.empty()
