"""Per-entrypoint concurrency 1 holds across processes, even for simultaneous dequeues."""

import asyncio
from datetime import timedelta
from uuid import UUID, uuid4

import pytest
from genji_worker.claims import FencedQueries
from genji_worker.driver import DeadlineDriver
from pgqueuer.ports.repository import EntrypointExecutionParameter

from tests.support.queue_helpers import XP_EVENT, enqueue_xp, register_worker
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

LIMIT_ONE = {XP_EVENT: EntrypointExecutionParameter(concurrency_limit=1)}


async def test_q08_two_concurrent_dequeuers_never_overshoot_a_limit_of_one(
    connect: Connect,
) -> None:
    owner = await connect()
    workers = []
    for _ in range(2):
        conn = await connect("worker")
        manager = await register_worker(conn, uuid4())
        workers.append((FencedQueries(DeadlineDriver(conn, timedelta(seconds=5))), manager))

    for trial in range(40):
        await owner.execute("DELETE FROM pgqueuer")
        for n in range(2):
            await enqueue_xp(owner, f"xp:{trial}:{n}", grant_id=trial * 2 + n)
        barrier = asyncio.Barrier(2)

        async def claim(
            queries: FencedQueries, manager: UUID, barrier: asyncio.Barrier = barrier
        ) -> int:
            await barrier.wait()
            jobs = await queries.dequeue(1, LIMIT_ONE, manager, 2, timedelta(seconds=60))
            return len(jobs)

        claimed = await asyncio.gather(*(claim(q, m) for q, m in workers))
        assert sum(claimed) == 1, f"trial {trial}: {claimed}"
        assert await owner.fetchval("SELECT count(*) FROM pgqueuer WHERE status = 'picked'") == 1


async def test_q08_reclaiming_our_own_running_job_stops_the_earlier_execution(
    connect: Connect,
) -> None:
    owner, conn = await connect(), await connect("worker")
    lost: list[object] = []
    queries = FencedQueries(
        DeadlineDriver(conn, timedelta(seconds=5), lambda: None), on_lost=lost.append
    )
    await enqueue_xp(owner, "xp:1")
    manager = await register_worker(conn, uuid4())
    first = await queries.dequeue(1, LIMIT_ONE, manager, 2, timedelta(seconds=60))
    await owner.execute("UPDATE pgqueuer SET heartbeat = now() - interval '5 minutes'")
    second = await queries.dequeue(1, LIMIT_ONE, manager, 2, timedelta(seconds=60))
    assert [j.id for j in first] == [j.id for j in second]
    assert len(lost) == 1 and lost[0] != queries.claims[first[0].id]
