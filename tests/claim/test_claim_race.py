"""Claims racing for an entrypoint's one running job: a claim passes over the job another
uncommitted claim is starting, and a claim that still loses the race (a start its snapshot
missed) claims nothing."""

import asyncio
from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim

from tests.support.harness import eventually
from tests.support.queue_helpers import (
    XP_EVENT,
    enqueue_sample,
    enqueue_xp,
    register_worker,
    start_without_claiming,
    waits_on_a_transaction,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(seconds=2)
OTHER = "api.newsfeed.create"


async def test_q08_a_claim_skips_an_entrypoint_another_uncommitted_claim_is_starting(
    connect: Connect,
) -> None:
    owner, first, worker = await connect(), await connect(), await connect("worker")
    for n in range(2):
        await enqueue_sample(owner, XP_EVENT, f"xp:skip:{n}")
    await enqueue_sample(owner, OTHER, "news:skip")
    manager = await register_worker(worker, uuid4())

    started = first.transaction()
    await started.start()
    # A claim of one job locks the one event it takes, not every event it could have taken.
    (taken,) = (await queue_claim(first, uuid4(), [XP_EVENT, OTHER], 1, None, WAIT)).jobs
    assert taken.row["entrypoint"] == XP_EVENT
    # While the first claim is open, the worker's claim of one job of either event returns at
    # once with the other event's job: it neither waits for the first claim, nor takes XP's
    # second job, nor gives up on XP's first (locked) and claims nothing.
    claim = await asyncio.wait_for(
        queue_claim(worker, manager, [XP_EVENT, OTHER], 1, None, WAIT), 10
    )
    claimed = claim.jobs
    assert [c.row["entrypoint"] for c in claimed] == [OTHER]
    # The locked job it passed over may be free for the next claim.
    assert claim.outlook is None
    await started.commit()

    # Once the first start is committed, XP has its running job and gives nothing more.
    assert (await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)).jobs == []
    picked = await owner.fetch(
        "SELECT id, entrypoint FROM pgqueuer WHERE status = 'picked' ORDER BY id"
    )
    assert {r["id"] for r in picked} == {taken.row["id"], claimed[0].row["id"]}


async def test_q08_claim_blocked_by_an_uncommitted_start_of_the_entrypoint_claims_nothing(
    connect: Connect,
) -> None:
    owner, first, worker = await connect(), await connect(), await connect("worker")
    for n in range(2):
        await enqueue_xp(owner, f"xp:race:{n}", grant_id=n + 1)
    manager = await register_worker(worker, uuid4())
    worker_pid = await worker.fetchval("SELECT pg_backend_pid()")
    second_id = await owner.fetchval("SELECT max(id) FROM pgqueuer")

    # The entrypoint's second job is started and not committed: the worker's snapshot sees no
    # running job, takes the first queued row and waits on the unique index of running jobs
    # until that start commits.
    started = first.transaction()
    await started.start()
    await start_without_claiming(first, second_id)
    racing = asyncio.create_task(queue_claim(worker, manager, [XP_EVENT], 1, 2, WAIT))

    async def blocked() -> bool:
        return await waits_on_a_transaction(owner, worker_pid)

    await eventually(blocked, deadline=10, what="the worker's claim to wait for the first")
    await started.commit()

    assert (await asyncio.wait_for(racing, 10)).jobs == []
    rows = await owner.fetch("SELECT id, status, queue_manager_id FROM pgqueuer ORDER BY id")
    assert [(r["id"], r["status"]) for r in rows if r["status"] == "picked"] == [
        (second_id, "picked")
    ]
    assert all(r["queue_manager_id"] != manager for r in rows)
    assert await owner.fetchval("SELECT count(*) FROM pgqueuer_log WHERE status = 'picked'") == 0
