"""What a claim says it left (queue_claim's outlook): nothing when another claim now could take
a job; otherwise whether jobs of the claimable events are queued and when the soonest deferred
one is due, read in the claim's own transaction."""

from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_queue.claim import Outlook, queue_claim

from tests.support.queue_helpers import (
    XP_EVENT,
    enqueue_behind_pending_parent,
    enqueue_sample,
    register_worker,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(seconds=2)
OTHER = "api.newsfeed.create"


async def test_a_claim_whose_event_keeps_the_rest_waiting_says_so(connect: Connect) -> None:
    owner, worker = await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    for n in range(2):
        await enqueue_sample(owner, XP_EVENT, f"outlook:{n}")

    claim = await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)

    assert len(claim.jobs) == 1
    # The second job waits for the first, whose event has its one running job.
    assert claim.outlook == Outlook(queued=True, next_due=None)


async def _one_job_of_each_event(connect: Connect) -> tuple[asyncpg.Connection, UUID]:
    """A worker session with its manager, and one ready job of XP and of OTHER."""
    owner, worker = await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    for event in (XP_EVENT, OTHER):
        await enqueue_sample(owner, event, f"outlook:{event}")
    return worker, manager


async def test_a_claim_that_leaves_another_events_job_ready_has_no_outlook(
    connect: Connect,
) -> None:
    worker, manager = await _one_job_of_each_event(connect)

    first = await queue_claim(worker, manager, [XP_EVENT, OTHER], 1, None, WAIT)
    second = await queue_claim(worker, manager, [XP_EVENT, OTHER], 1, None, WAIT)

    assert (len(first.jobs), first.outlook) == (1, None)
    assert (len(second.jobs), second.outlook) == (1, Outlook(queued=False, next_due=None))


async def test_a_claim_that_fills_the_managers_limit_leaves_nothing_for_it(
    connect: Connect,
) -> None:
    worker, manager = await _one_job_of_each_event(connect)

    claim = await queue_claim(worker, manager, [XP_EVENT, OTHER], 1, 1, WAIT)

    assert (len(claim.jobs), claim.outlook) == (1, Outlook(queued=True, next_due=None))


async def test_an_empty_claim_reads_when_the_soonest_deferred_job_is_due(
    connect: Connect,
) -> None:
    owner, worker = await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    assert (await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)).outlook == Outlook(
        queued=False, next_due=None
    )
    for n, event in enumerate((XP_EVENT, OTHER)):
        await enqueue_sample(owner, event, f"outlook:{event}")
        await owner.execute(
            "UPDATE pgqueuer SET execute_after = now() + $2 * interval '1 hour'"
            " WHERE entrypoint = $1",
            event,
            n + 1,
        )

    claim = await queue_claim(worker, manager, [XP_EVENT, OTHER], 1, None, WAIT)

    assert claim.jobs == [] and claim.outlook is not None and claim.outlook.queued
    assert claim.outlook.next_due is not None
    assert timedelta(minutes=59) < claim.outlook.next_due <= timedelta(hours=1)


async def test_a_job_the_gate_defers_frees_its_event_for_another_claim(connect: Connect) -> None:
    owner, worker = await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    await enqueue_behind_pending_parent(owner, XP_EVENT, OTHER, "outlook:child")
    await enqueue_sample(owner, XP_EVENT, "outlook:free")

    # The child is XP's first job and waits for its parent: the gate sends it back.
    claim = await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)

    assert (claim.jobs, claim.outlook) == ([], None)
    (free,) = (await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)).jobs
    assert free.row["entrypoint"] == XP_EVENT


async def test_a_session_the_guards_refuse_claims_nothing_and_says_nothing(
    connect: Connect,
) -> None:
    owner, worker, rogue = await connect(), await connect("worker"), await connect("worker")
    manager = await register_worker(worker, uuid4())
    await enqueue_sample(owner, XP_EVENT, "outlook:guarded")

    claim = await queue_claim(rogue, manager, [XP_EVENT], 1, None, WAIT)

    assert (claim.jobs, claim.outlook) == ([], None)
