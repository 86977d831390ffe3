"""A claim chooses and locks its rows in one statement and writes them in the next. A row
another claim has taken and not yet committed is skipped, never claimed a second time once
that claim commits; and a row another transaction holds is skipped at once for the next
candidate, so a running job whose owner is beating or committing an effect is not reclaimed
from under it, and does not keep the claim from other work."""

import asyncio
from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim
from genji_queue.heartbeat import queue_heartbeat
from genji_queue.receipts import effect_receipt_begin
from genji_sdk import ClaimToken

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


@pytest.mark.parametrize("stale", [False, True], ids=["ready", "stale"])
async def test_q08_a_row_an_uncommitted_claim_took_is_not_claimed_again(
    connect: Connect, stale: bool
) -> None:
    owner, first, worker = await connect(), await connect(), await connect("worker")
    await enqueue_xp(owner, "xp:lock:1")
    manager = await register_worker(worker, uuid4())
    worker_pid = await worker.fetchval("SELECT pg_backend_pid()")
    if stale:
        assert len((await queue_claim(owner, uuid4(), [XP_EVENT], 1, 2, WAIT)).jobs) == 1
        await owner.execute("UPDATE pgqueuer SET heartbeat = now() - interval '5 minutes'")

    started = first.transaction()
    await started.start()
    (taken,) = (await queue_claim(first, uuid4(), [XP_EVENT], 1, 2, WAIT)).jobs
    second = asyncio.create_task(queue_claim(worker, manager, [XP_EVENT], 1, 2, WAIT))

    async def settled() -> bool:
        return second.done() or await waits_on_a_transaction(owner, worker_pid)

    await eventually(settled, deadline=10, what="the second claim to return or wait")
    await started.commit()

    assert (await asyncio.wait_for(second, 10)).jobs == []
    row = await owner.fetchrow("SELECT id, status, queue_manager_id, updated FROM pgqueuer")
    assert row is not None
    assert (row["id"], row["queue_manager_id"], row["updated"]) == (
        taken.row["id"],
        taken.row["queue_manager_id"],
        taken.row["updated"],
    )
    picks = await owner.fetchval("SELECT count(*) FROM pgqueuer_log WHERE status = 'picked'")
    assert picks == (2 if stale else 1)


@pytest.mark.parametrize("holder", ["heartbeat", "effect", "start"])
async def test_q08_a_row_another_transaction_holds_is_skipped_not_claimed(
    connect: Connect, holder: str
) -> None:
    owner, other, worker = await connect(), await connect(), await connect("worker")
    await enqueue_xp(owner, "xp:held:1", user_id=1, amount=5)
    job_id = await owner.fetchval("SELECT id FROM pgqueuer")
    await enqueue_sample(owner, OTHER, "news:held")
    manager = await register_worker(worker, uuid4())
    if holder != "start":
        (held,) = (await queue_claim(owner, uuid4(), [XP_EVENT], 1, 2, WAIT)).jobs
        await owner.execute(
            "UPDATE pgqueuer SET heartbeat = now() - interval '5 minutes' WHERE id = $1", job_id
        )
        token = ClaimToken(job_id, held.row["queue_manager_id"], held.row["updated"])

    # Another transaction holds the row and has not committed: the stale job's owner beats
    # (FOR NO KEY UPDATE), or begins an effect under its claim (FOR KEY SHARE), or a ready
    # job is started directly.
    holding = other.transaction()
    await holding.start()
    if holder == "heartbeat":
        assert await queue_heartbeat(other, [token]) == set()
    elif holder == "effect":
        job = await owner.fetchval("SELECT id FROM jobs")
        await effect_receipt_begin(other, token, job, "xp", "user:1:+5")
    else:
        await start_without_claiming(other, job_id)

    # The worker's claim of one job returns at once, while the row is held, without it: the
    # held job comes first in priority order, and the next event's job takes its place.
    claimed = (
        await asyncio.wait_for(queue_claim(worker, manager, [XP_EVENT, OTHER], 1, 2, WAIT), 10)
    ).jobs
    assert [c.row["entrypoint"] for c in claimed] == [OTHER]
    # An effect begun and not completed may not commit.
    await (holding.rollback() if holder == "effect" else holding.commit())
    row = await owner.fetchrow(
        "SELECT status, queue_manager_id FROM pgqueuer WHERE id = $1", job_id
    )
    assert row is not None and row["status"] == "picked" and row["queue_manager_id"] != manager
