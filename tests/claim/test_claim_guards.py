"""queue_claim's own guards: a worker session claims only for a manager it registered."""

from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim

from tests.support.queue_helpers import XP_EVENT, enqueue_xp, register_worker
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(seconds=2)
QUEUED = "SELECT count(*) FROM pgqueuer WHERE status = 'queued' AND queue_manager_id IS NULL"


async def test_q15_worker_session_claims_no_ready_job_for_a_manager_it_did_not_register(
    connect: Connect,
) -> None:
    owner = await connect()
    await enqueue_xp(owner, "xp:1")
    honest, rogue = await connect("worker"), await connect("worker")
    manager = await register_worker(honest, uuid4())
    await register_worker(rogue, uuid4())

    assert (await queue_claim(rogue, manager, [XP_EVENT], 1, 2, WAIT)).jobs == []
    assert (await queue_claim(rogue, uuid4(), [XP_EVENT], 1, 2, WAIT)).jobs == []
    assert await owner.fetchval(QUEUED) == 1
    assert await owner.fetchval("SELECT count(*) FROM pgqueuer_log WHERE status = 'picked'") == 0
    # The same ready job goes to the session that registered the manager.
    assert len((await queue_claim(honest, manager, [XP_EVENT], 1, 2, WAIT)).jobs) == 1
