"""queue_claim runs on generic plans, planned once per session: the plan cache's cost comparison
would otherwise plan its writing statement, and for a worker of few events its candidate scan,
afresh at every call. The claims it makes on those plans stay the ones the rules name, and its
guard's plan reads nothing the manager's finished jobs left behind."""

from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim

from tests.support.queue_helpers import XP_EVENT, enqueue_sample, register_worker
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(seconds=2)
OTHER = "api.newsfeed.create"
# The plan cache plans a statement's first five executions for their values; the sixth and
# later ones are where a generic plan takes over, so the claims below run well past them.
CALLS = 8


async def test_q08_claims_on_the_session_plans_take_jobs_in_priority_order_one_per_event(
    connect: Connect,
) -> None:
    owner, worker = await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    for n in range(CALLS):
        await enqueue_sample(owner, XP_EVENT, f"xp:{n}")
        await enqueue_sample(owner, OTHER, f"news:{n}")
    await owner.execute("UPDATE pgqueuer SET priority = id % 3 WHERE entrypoint = $1", XP_EVENT)
    expected = [
        r["id"]
        for r in await owner.fetch(
            "SELECT id FROM pgqueuer WHERE entrypoint = $1 ORDER BY priority DESC, id", XP_EVENT
        )
    ]

    taken: list[int] = []
    for _ in range(CALLS):
        # One event named, batch 1: the shape whose scan the cost comparison planned per call.
        claimed = (await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)).jobs
        assert len(claimed) == 1
        # While it runs, its event has nothing to give, whatever is queued behind it.
        assert (await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)).jobs == []
        taken.append(claimed[0].row["id"])
        await owner.execute("DELETE FROM pgqueuer WHERE id = $1", taken[-1])
    assert taken == expected

    # Both events named, batch 2: one job of each, the other event's first in id order.
    await enqueue_sample(owner, XP_EVENT, "xp:last")
    both = (await queue_claim(worker, manager, [XP_EVENT, OTHER], 2, None, WAIT)).jobs
    assert sorted(c.row["entrypoint"] for c in both) == sorted([XP_EVENT, OTHER])
    first_other = await owner.fetchval("SELECT min(id) FROM pgqueuer WHERE entrypoint = $1", OTHER)
    assert first_other in {c.row["id"] for c in both}


# Jobs the manager claims and finishes before the measured claim: each leaves an entry in
# the manager's index (pgqueuer_queue_manager_id_idx) until a vacuum removes it. The queue
# holds more, as a backlog does: on a table of a few pages a scan of it is planned instead.
FINISHED = 60
QUEUED = 400


async def test_a_claim_reads_no_entry_of_the_jobs_its_manager_already_finished(
    connect: Connect,
) -> None:
    # No ANALYZE, as in a queue that filled faster than autovacuum looks at it: a guard that
    # filters the manager's running jobs by its index is then planned as a bitmap of that
    # index, which returns every entry left by the jobs the manager finished.
    owner, worker = await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    for n in range(QUEUED):
        await enqueue_sample(owner, XP_EVENT, f"xp:{n}")
    for _ in range(FINISHED):
        claimed = (await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)).jobs
        await owner.execute("DELETE FROM pgqueuer WHERE id = $1", claimed[0].row["id"])

    async with worker.transaction():
        assert len((await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)).jobs) == 1
        # Entries read from the manager's index by this session's claims, as far as not yet
        # reported to the statistics (at least this claim's).
        read = await worker.fetchval(
            "SELECT pg_stat_get_xact_tuples_returned('pgqueuer_queue_manager_id_idx'::regclass)"
        )
    assert read < FINISHED
