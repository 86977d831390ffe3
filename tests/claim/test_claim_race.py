"""A claim that loses the race for an entrypoint's one running job claims nothing."""

import asyncio
from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim

from tests.support.harness import eventually
from tests.support.queue_helpers import (
    XP_EVENT,
    enqueue_xp,
    register_worker,
    waits_on_a_transaction,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(seconds=2)


async def test_q08_claim_blocked_by_an_uncommitted_start_of_the_entrypoint_claims_nothing(
    connect: Connect,
) -> None:
    owner, first, worker = await connect(), await connect(), await connect("worker")
    for n in range(2):
        await enqueue_xp(owner, f"xp:race:{n}", grant_id=n + 1)
    manager = await register_worker(worker, uuid4())
    worker_pid = await worker.fetchval("SELECT pg_backend_pid()")

    # The first claim starts the entrypoint's one running job and has not committed: the
    # worker's snapshot sees no running job, takes the other queued row and waits on the
    # unique index of running jobs until the first commits.
    started = first.transaction()
    await started.start()
    (taken,) = await queue_claim(first, uuid4(), [XP_EVENT], 1, 2, WAIT)
    racing = asyncio.create_task(queue_claim(worker, manager, [XP_EVENT], 1, 2, WAIT))

    async def blocked() -> bool:
        return await waits_on_a_transaction(owner, worker_pid)

    await eventually(blocked, deadline=10, what="the worker's claim to wait for the first")
    await started.commit()

    assert await asyncio.wait_for(racing, 10) == []
    rows = await owner.fetch("SELECT id, status, queue_manager_id FROM pgqueuer ORDER BY id")
    assert [(r["id"], r["status"]) for r in rows if r["status"] == "picked"] == [
        (taken.row["id"], "picked")
    ]
    assert all(r["queue_manager_id"] != manager for r in rows)
    assert await owner.fetchval("SELECT count(*) FROM pgqueuer_log WHERE status = 'picked'") == 1
