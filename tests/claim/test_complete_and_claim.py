"""queue_complete_and_claim: a worker's completions and its next claim in one transaction. The
completions free their events for the claim; the transaction commits asynchronously, as a
completion does, unless the claim wrote anything, which commits as a claim alone does. A
claim that loses a race for an event's running slot rolls the completions back with it; they
are then written alone."""

import asyncio
from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_queue.claim import (
    NOTHING_CLAIMED,
    Claim,
    Claimed,
    Outlook,
    queue_claim,
    queue_complete_and_claim,
)
from genji_sdk import ClaimToken
from genji_worker.claims import claim_of
from pgqueuer.models import Job

from tests.support.harness import eventually
from tests.support.queue_helpers import (
    XP_EVENT,
    enqueue_behind_pending_parent,
    enqueue_sample,
    register_worker,
    start_without_claiming,
    waits_on_a_transaction,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(seconds=2)
OTHER = "api.newsfeed.create"


async def _first_of(
    connect: Connect, jobs: int
) -> tuple[asyncpg.Connection, asyncpg.Connection, UUID, Claimed]:
    """Owner and worker sessions, the worker's manager, `jobs` XP jobs queued (entities of their
    own) and the first of them claimed."""
    owner, worker = await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    for n in range(jobs):
        await enqueue_sample(owner, XP_EVENT, f"complete-claim:{n}")
    (first,) = (await queue_claim(worker, manager, [XP_EVENT], 1, None, WAIT)).jobs
    return owner, worker, manager, first


def _token(claimed: Claimed) -> ClaimToken:
    return claim_of(Job.model_validate(claimed.row))


async def test_a_completion_frees_its_event_for_the_claim_in_the_same_call(
    connect: Connect,
) -> None:
    owner, worker, manager, first = await _first_of(connect, 2)
    done = _token(first)

    written, claim = await queue_complete_and_claim(
        worker, [done], manager, [XP_EVENT], 1, None, WAIT
    )

    assert written == {done}
    assert [c.row["id"] for c in claim.jobs] != [first.row["id"]] and len(claim.jobs) == 1
    assert claim.outlook == Outlook(queued=False, next_due=None)
    logged = await owner.fetch(
        "SELECT job_id, status::text FROM pgqueuer_log ORDER BY id DESC LIMIT 2"
    )
    assert {(r["job_id"], r["status"]) for r in logged} == {
        (first.row["id"], "successful"),
        (claim.jobs[0].row["id"], "picked"),
    }


async def _setting_after_call(
    worker: asyncpg.Connection, done: ClaimToken, manager: UUID
) -> tuple[set[ClaimToken], Claim, str]:
    """Call queue_complete_and_claim in a transaction of a session whose synchronous_commit is
    production's (on; test clusters run off), and read the setting it leaves for the commit."""
    await worker.execute("SET synchronous_commit = on")
    async with worker.transaction():
        written, claim = await queue_complete_and_claim(
            worker, [done], manager, [XP_EVENT], 1, None, WAIT
        )
        setting = await worker.fetchval("SELECT current_setting('synchronous_commit')")
    return written, claim, setting


@pytest.mark.parametrize("more", [True, False], ids=["claims-a-job", "claims-nothing"])
async def test_the_call_commits_asynchronously_only_when_it_claimed_nothing(
    connect: Connect, more: bool
) -> None:
    _, worker, manager, first = await _first_of(connect, 2 if more else 1)
    done = _token(first)

    written, claim, setting = await _setting_after_call(worker, done, manager)

    assert written == {done} and len(claim.jobs) == (1 if more else 0)
    assert setting == ("on" if more else "off")


async def test_a_stale_completion_is_not_written_and_its_event_stays_taken(
    connect: Connect,
) -> None:
    owner, worker, manager, first = await _first_of(connect, 2)
    job = Job.model_validate(first.row)
    stale = claim_of(job.model_copy(update={"updated": job.updated - timedelta(seconds=1)}))

    written, claim = await queue_complete_and_claim(
        worker, [stale], manager, [XP_EVENT], 1, None, WAIT
    )

    assert (written, claim.jobs) == (set(), [])
    assert await owner.fetchval("SELECT status::text FROM pgqueuer WHERE id = $1", job.id) == (
        "picked"
    )


async def test_a_claim_whose_gate_sent_its_job_back_commits_synchronously(
    connect: Connect,
) -> None:
    owner, worker, manager, first = await _first_of(connect, 1)
    # XP's next job waits for its parent: the gate writes it back.
    await enqueue_behind_pending_parent(owner, XP_EVENT, OTHER, "complete-claim:child")

    written, claim, setting = await _setting_after_call(worker, _token(first), manager)

    assert (written, claim.jobs, claim.outlook) == ({_token(first)}, [], None)
    assert setting == "on"


async def test_a_claim_that_loses_a_race_leaves_its_completions_written_alone(
    connect: Connect,
) -> None:
    owner, other, worker = await connect(), await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    await enqueue_sample(owner, OTHER, "complete-claim:done")
    (done,) = (await queue_claim(worker, manager, [OTHER], 1, None, WAIT)).jobs
    for n in range(2):
        await enqueue_sample(owner, XP_EVENT, f"complete-claim:race:{n}")
    first_xp, second_xp = [
        r["id"]
        for r in await owner.fetch(
            "SELECT id FROM pgqueuer WHERE entrypoint = $1 ORDER BY id", XP_EVENT
        )
    ]
    worker_pid = await worker.fetchval("SELECT pg_backend_pid()")

    # XP's second job is started and not committed: the call's claim takes XP's first job and
    # waits on the unique index of running jobs until that start commits, then fails.
    started = other.transaction()
    await started.start()
    await start_without_claiming(other, second_xp)
    racing = asyncio.create_task(
        queue_complete_and_claim(worker, [_token(done)], manager, [XP_EVENT, OTHER], 1, None, WAIT)
    )

    async def blocked() -> bool:
        return await waits_on_a_transaction(owner, worker_pid)

    await eventually(blocked, deadline=10, what="the call's claim to wait for the other start")
    await started.commit()

    written, claim = await asyncio.wait_for(racing, 10)
    assert (written, claim) == ({_token(done)}, NOTHING_CLAIMED)
    rows = await owner.fetch("SELECT id, status::text FROM pgqueuer ORDER BY id")
    assert [(r["id"], r["status"]) for r in rows] == [(first_xp, "queued"), (second_xp, "picked")]
    assert (
        await owner.fetchval(
            "SELECT status::text FROM pgqueuer_log WHERE job_id = $1 ORDER BY id DESC LIMIT 1",
            done.row["id"],
        )
        == "successful"
    )
