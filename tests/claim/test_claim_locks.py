"""A claim chooses its rows in one statement and writes them in the next: the rows it chose
stay locked in between, so a row another claim has taken and not yet committed is skipped,
never claimed a second time once that claim commits."""

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


@pytest.mark.parametrize("stale", [False, True], ids=["ready", "stale"])
async def test_q08_a_row_an_uncommitted_claim_took_is_not_claimed_again(
    connect: Connect, stale: bool
) -> None:
    owner, first, worker = await connect(), await connect(), await connect("worker")
    await enqueue_xp(owner, "xp:lock:1")
    manager = await register_worker(worker, uuid4())
    worker_pid = await worker.fetchval("SELECT pg_backend_pid()")
    if stale:
        assert len(await queue_claim(owner, uuid4(), [XP_EVENT], 1, 2, WAIT)) == 1
        await owner.execute("UPDATE pgqueuer SET heartbeat = now() - interval '5 minutes'")

    started = first.transaction()
    await started.start()
    (taken,) = await queue_claim(first, uuid4(), [XP_EVENT], 1, 2, WAIT)
    second = asyncio.create_task(queue_claim(worker, manager, [XP_EVENT], 1, 2, WAIT))

    async def settled() -> bool:
        return second.done() or await waits_on_a_transaction(owner, worker_pid)

    await eventually(settled, deadline=10, what="the second claim to return or wait")
    await started.commit()

    assert await asyncio.wait_for(second, 10) == []
    row = await owner.fetchrow("SELECT id, status, queue_manager_id, updated FROM pgqueuer")
    assert row is not None
    assert (row["id"], row["queue_manager_id"], row["updated"]) == (
        taken.row["id"],
        taken.row["queue_manager_id"],
        taken.row["updated"],
    )
    picks = await owner.fetchval("SELECT count(*) FROM pgqueuer_log WHERE status = 'picked'")
    assert picks == (2 if stale else 1)
