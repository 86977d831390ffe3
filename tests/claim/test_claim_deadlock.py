"""A claim that meets crossed starts of two entrypoints on the unique index of running jobs
deadlocks; PostgreSQL aborts it, and it then changed nothing and claims nothing. Claims skip the
rows other claims hold, so the crossed starts here are written directly, as starts that the
claim's snapshot missed would be."""

import asyncio
from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim

from tests.support.harness import eventually
from tests.support.queue_helpers import (
    enqueue_sample,
    register_worker,
    start_without_claiming,
    waits_on_a_transaction,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(seconds=2)
FIRST, SECOND = "api.completion.submission", "api.newsfeed.create"
DEADLOCKS = "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"


async def test_q08_a_claim_aborted_by_a_deadlock_claims_nothing(connect: Connect) -> None:
    owner, other, worker = await connect(), await connect(), await connect("worker")
    for event in (FIRST, SECOND):
        for n in range(2):
            await enqueue_sample(owner, event, f"{event}:{n}")
    manager = await register_worker(worker, uuid4())
    worker_pid = await worker.fetchval("SELECT pg_backend_pid()")
    deadlocks_before = await owner.fetchval(DEADLOCKS)

    ids = {
        (r["entrypoint"], r["n"]): r["id"]
        for r in await owner.fetch(
            "SELECT id, entrypoint, row_number() OVER (PARTITION BY entrypoint ORDER BY id) AS n "
            "FROM pgqueuer"
        )
    }
    # SECOND's second job is started and not committed. The worker's claim takes FIRST's first
    # job and SECOND's first, starts FIRST and waits on SECOND's running slot.
    started = other.transaction()
    await started.start()
    await start_without_claiming(other, ids[SECOND, 2])
    crossed = asyncio.create_task(queue_claim(worker, manager, [FIRST, SECOND], 2, None, WAIT))

    async def blocked() -> bool:
        return await waits_on_a_transaction(owner, worker_pid)

    await eventually(blocked, deadline=10, what="the worker's claim to wait on the other's")
    # The same transaction now starts FIRST's second job and waits on the worker's start of
    # FIRST: a cycle, and the worker, waiting longer, is the one PostgreSQL aborts.
    await start_without_claiming(other, ids[FIRST, 2])
    await started.commit()

    assert (await asyncio.wait_for(crossed, 10)).jobs == []

    async def deadlock_counted() -> bool:
        return bool(await owner.fetchval(DEADLOCKS) > deadlocks_before)

    await eventually(deadlock_counted, deadline=10, what="the deadlock to be counted")
    rows = await owner.fetch(
        "SELECT id, entrypoint, queue_manager_id FROM pgqueuer WHERE status = 'picked' ORDER BY id"
    )
    assert [r["id"] for r in rows] == sorted([ids[SECOND, 2], ids[FIRST, 2]])
    assert all(r["queue_manager_id"] != manager for r in rows)
