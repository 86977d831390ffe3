"""queue_begin locks the claimed row before it decides: a writer that has changed the row and
not yet committed makes it wait, and the change it then sees wins."""

import asyncio
from datetime import timedelta

import pytest
from genji_queue.begin import queue_begin
from genji_worker.claims import claim_of

from tests.support.harness import eventually
from tests.support.queue_helpers import claimed_ungated, enqueue_xp, waits_on_a_transaction
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(milliseconds=200)


async def test_q08_begin_waits_for_an_uncommitted_release_and_then_reports_the_claim_lost(
    connect: Connect,
) -> None:
    owner, releaser, gate = await connect(), await connect(), await connect()
    await enqueue_xp(owner, "xp:gate-lock:1")
    job = await claimed_ungated(owner)
    gate_pid = await gate.fetchval("SELECT pg_backend_pid()")

    release = releaser.transaction()
    await release.start()
    assert await releaser.fetchval(
        "SELECT queue_release($1, $2, $3)", job.id, job.queue_manager_id, job.updated
    )
    deciding = asyncio.create_task(queue_begin(gate, claim_of(job), WAIT))

    async def settled() -> bool:
        return deciding.done() or await waits_on_a_transaction(owner, gate_pid)

    await eventually(settled, deadline=10, what="the gate to decide or wait for the release")
    assert not deciding.done(), "the gate decided on a claim whose release was not yet committed"
    await release.commit()

    assert (await asyncio.wait_for(deciding, 10)).decision == "lost"
    row = await owner.fetchrow("SELECT status::text, queue_manager_id FROM pgqueuer")
    assert row is not None and tuple(row) == ("queued", None)
