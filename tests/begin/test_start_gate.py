"""queue_begin: the start gate every execution passes before its handler runs."""

import asyncio
from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_api.queue.enqueue import enqueue_job
from genji_queue.release import queue_release
from genji_worker.claims import claim_of
from pgqueuer.models import Job

from tests.support.queue_helpers import (
    XP_EVENT,
    claim_ungated,
    claimed_ungated,
    enqueue_xp,
    gate_decision,
    sample_json,
    xp_payload,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


async def _enqueue(
    conn: asyncpg.Connection,
    key: str,
    entity: str,
    depends_on: UUID | None = None,
    event: str = XP_EVENT,
) -> UUID:
    async with conn.transaction():
        status = await conn.fetchrow(
            "SELECT job_id FROM enqueue_job($1, $2::jsonb, $3, $4, $5)",
            event,
            sample_json(event),
            key,
            entity,
            depends_on,
        )
    assert status is not None
    return UUID(str(status["job_id"]))


async def test_q08_a_stale_claim_is_lost_and_changes_nothing(connect: Connect) -> None:
    conn = await connect()
    await enqueue_xp(conn, "xp:1")
    stale = await claimed_ungated(conn)
    await conn.execute("UPDATE pgqueuer SET heartbeat = now() - interval '5 minutes'")
    await claim_ungated(conn, uuid4())
    assert await gate_decision(conn, stale) == "lost"


async def test_a_job_whose_workers_keep_dying_is_held(connect: Connect) -> None:
    conn = await connect()
    job_id = (await enqueue_xp(conn, "xp:1")).id
    for _ in range(3):  # three owners die mid-run: claimed, never finished
        await claimed_ungated(conn)
        await conn.execute("UPDATE pgqueuer SET heartbeat = now() - interval '5 minutes'")
    await conn.execute("UPDATE queue_settings SET max_reclaims = 2")
    last = await claimed_ungated(conn)
    assert await gate_decision(conn, last) == "held"
    row = await conn.fetchrow("SELECT error_code, handler_failures FROM jobs WHERE id = $1", job_id)
    assert row is not None and tuple(row) == ("WorkerLost", 0)


async def test_worker_deaths_are_counted_again_from_the_job_s_last_return_to_the_queue(
    connect: Connect,
) -> None:
    conn = await connect()
    job_id = (await enqueue_xp(conn, "xp:1")).id
    await conn.execute("UPDATE queue_settings SET max_reclaims = 2")
    for _ in range(3):  # two owners die mid-run, the third returns the job to the queue
        last = await claimed_ungated(conn)
        await conn.execute("UPDATE pgqueuer SET heartbeat = now() - interval '5 minutes'")
    assert await queue_release(conn, claim_of(last), "shutdown")
    for _ in range(3):  # two more deaths since then: within the cap again
        last = await claimed_ungated(conn)
        await conn.execute("UPDATE pgqueuer SET heartbeat = now() - interval '5 minutes'")
    assert await gate_decision(conn, last) == "run"
    row = await conn.fetchrow("SELECT error_code, held_at FROM jobs WHERE id = $1", job_id)
    assert row is not None and tuple(row) == (None, None)


async def test_q14_dependent_defers_while_parent_is_pending_then_is_woken_by_its_success(
    connect: Connect,
) -> None:
    conn = await connect()
    parent = await _enqueue(conn, "p", "user:1", event="api.playtest.create")
    child = await _enqueue(conn, "c", "user:2", depends_on=parent)
    child_claim = await claimed_ungated(conn)
    assert await gate_decision(conn, child_claim) == "deferred"
    assert await conn.fetchval(
        "SELECT execute_after > now() FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id WHERE j.id = $1",
        child,
    )

    parent_claim = await claimed_ungated(conn, "api.playtest.create")
    assert await conn.fetchval(
        "SELECT queue_complete($1, $2, $3)",
        parent_claim.id,
        parent_claim.queue_manager_id,
        parent_claim.updated,
    )
    assert await conn.fetchval(
        "SELECT execute_after <= now() FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id WHERE j.id = $1",
        child,
    )
    assert await gate_decision(conn, await claimed_ungated(conn)) == "run"


async def test_q14_a_failed_parent_holds_the_dependent_until_it_later_succeeds(
    connect: Connect,
) -> None:
    conn = await connect()
    parent = await _enqueue(conn, "p", "user:1", event="api.playtest.create")
    await _enqueue(conn, "c", "user:2", depends_on=parent)
    parent_claim = await claimed_ungated(conn, "api.playtest.create")
    await conn.execute(
        'SELECT queue_hold($1, $2, $3, \'{"exception_type": "Boom"}\')',
        parent_claim.id,
        parent_claim.queue_manager_id,
        parent_claim.updated,
    )
    assert await gate_decision(conn, await claimed_ungated(conn)) == "held"
    assert (
        await conn.fetchval("SELECT error_code FROM jobs WHERE depends_on = $1", parent)
        == "DependencyFailed"
    )

    retried = await conn.fetchval(
        "SELECT outcome FROM recovery_retry($1, 0, 'q14-retry', 1098765432109876543)", parent
    )
    assert retried == "accepted"
    again = await claimed_ungated(conn, "api.playtest.create")
    assert await conn.fetchval(
        "SELECT queue_complete($1, $2, $3)", again.id, again.queue_manager_id, again.updated
    )
    assert (
        await conn.fetchval(
            "SELECT q.status::text FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id WHERE j.depends_on = $1",
            parent,
        )
        == "queued"
    )


@pytest.mark.parametrize("earlier_state", ["queued", "running", "held"])
async def test_a_later_event_of_an_entity_waits_for_an_unfinished_earlier_one(
    connect: Connect, earlier_state: str
) -> None:
    conn = await connect()
    await _enqueue(conn, "first", "user:1", event="api.notification.delivery")
    await _enqueue(conn, "second", "user:1")
    if earlier_state != "queued":
        first = await claimed_ungated(conn, "api.notification.delivery")
    if earlier_state == "held":
        await conn.execute(
            "SELECT queue_hold($1, $2, $3, '{}')", first.id, first.queue_manager_id, first.updated
        )
    assert await gate_decision(conn, await claimed_ungated(conn)) == "deferred"


async def test_finished_jobs_leave_the_unfinished_index_and_stop_blocking(
    connect: Connect,
) -> None:
    """The gate reads only jobs without finished_at: exactly those whose queue row exists."""
    conn = await connect()
    event = "api.notification.delivery"

    async def finish(claim: Job) -> None:
        assert await conn.fetchval(
            "SELECT queue_complete($1, $2, $3)", claim.id, claim.queue_manager_id, claim.updated
        )

    async def hold(claim: Job) -> None:
        await conn.execute(
            "SELECT queue_hold($1, $2, $3, '{}')", claim.id, claim.queue_manager_id, claim.updated
        )

    await _enqueue(conn, "done", "user:1", event=event)
    discarded = await _enqueue(conn, "discarded", "user:1", event=event)
    await finish(await claimed_ungated(conn, event))
    await hold(await claimed_ungated(conn, event))
    discard = "SELECT outcome FROM recovery_discard($1, 0, 'd', 1098765432109876543, 'dup')"
    assert await conn.fetchval(discard, discarded) == "accepted"
    await _enqueue(conn, "later", "user:1")
    later = await claimed_ungated(conn)
    assert await gate_decision(conn, later) == "run"  # a succeeded and a discarded job do not block
    await finish(later)

    held, running, queued = [
        await _enqueue(conn, key, "user:1", event=event) for key in ("held", "running", "queued")
    ]
    await hold(await claimed_ungated(conn, event))
    await claimed_ungated(conn, event)
    unfinished = await conn.fetch(
        "SELECT id FROM jobs WHERE entity_key = 'user:1' AND finished_at IS NULL"
    )
    assert {r["id"] for r in unfinished} == {held, running, queued}


async def test_unordered_read_model_refreshes_do_not_wait(connect: Connect) -> None:
    conn = await connect()
    await _enqueue(conn, "first", "completion:1", event="api.completion.verification")
    await _enqueue(conn, "upvote", "completion:1", event="api.completion.upvote")
    assert await gate_decision(conn, await claimed_ungated(conn, "api.completion.upvote")) == "run"


async def test_deferral_backs_off_but_stays_bounded(connect: Connect) -> None:
    conn = await connect()
    await _enqueue(conn, "first", "user:1", event="api.notification.delivery")
    await _enqueue(conn, "second", "user:1")
    delays = []
    for _ in range(4):
        await conn.execute(
            "UPDATE pgqueuer SET execute_after = now() - interval '1 second' WHERE entrypoint = $1",
            XP_EVENT,
        )
        claim = await claimed_ungated(conn)
        assert await gate_decision(conn, claim) == "deferred"
        delays.append(
            await conn.fetchval(
                "SELECT execute_after - now() FROM pgqueuer WHERE id = $1", claim.id
            )
        )
    assert delays == sorted(delays) and delays[-1] > delays[0]
    assert delays[-1] <= timedelta(minutes=1)


async def test_concurrent_producers_of_one_entity_get_sequences_in_commit_order(
    connect: Connect,
) -> None:
    first, second = await connect(), await connect()
    tx = first.transaction()
    await tx.start()
    await enqueue_job(
        first,
        event_name=XP_EVENT,
        payload=xp_payload(grant_id=1),
        event_key="a",
        entity_key="user:1",
    )

    async def later() -> None:
        async with second.transaction():
            await enqueue_job(
                second,
                event_name=XP_EVENT,
                payload=xp_payload(grant_id=2),
                event_key="b",
                entity_key="user:1",
            )

    waiting = asyncio.create_task(later())
    await asyncio.sleep(0.2)
    assert not waiting.done()  # the second producer waits for the first to commit
    await tx.commit()
    await waiting
    seqs = await first.fetch("SELECT event_key FROM jobs ORDER BY event_seq")
    assert [r["event_key"] for r in seqs] == ["a", "b"]
