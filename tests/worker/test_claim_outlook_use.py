"""How the fenced adapter uses what a claim left: after a claim that took jobs and left nothing
another claim could take, PGQueuer's next claim is not sent, unless a notification arrived or
the adapter wrote a result since; and the outlook is used once."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from uuid import uuid4

import asyncpg
import pytest
from genji_queue.claim import Outlook
from genji_sdk import REGISTRY
from genji_worker.claims import FencedQueries
from genji_worker.driver import DeadlineDriver
from genji_worker.manager import FencedQueueManager
from genji_worker.supervisor import QueueSupervisor
from pgqueuer.ports.repository import EntrypointExecutionParameter

from tests.support.harness import eventually
from tests.support.queue_helpers import XP_EVENT, enqueue_sample, register_worker
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue

BOT_EVENTS = [spec.name for spec in REGISTRY.owned_by("bot")]
OTHER = next(name for name in BOT_EVENTS if name != XP_EVENT)
LIMIT_ONE = {name: EntrypointExecutionParameter(concurrency_limit=1) for name in BOT_EVENTS}
STALE = timedelta(seconds=60)


async def _listening(conn: asyncpg.Connection) -> tuple[FencedQueries, list[str]]:
    """An adapter on a connection that listens to the queue's channel, as PGQueuer's does, and
    the statements it sends."""
    driver = DeadlineDriver(conn, timedelta(seconds=5))
    await driver.add_listener("ch_pgqueuer", lambda _: None)
    sent: list[str] = []
    conn.add_query_logger(lambda record: sent.append(record.query))
    return FencedQueries(driver), sent


async def _count(sent: list[str]) -> int:
    await asyncio.sleep(0)  # asyncpg calls query loggers soon after, not during, the statement
    return len(sent)


async def _dequeue(queries: FencedQueries, manager: object) -> list[int]:
    jobs = await queries.dequeue(1, LIMIT_ONE, manager, 2, STALE)  # type: ignore[arg-type]
    return [job.id for job in jobs]


async def test_after_a_claim_that_left_nothing_the_next_one_is_not_sent(
    connect: Connect,
) -> None:
    owner, conn = await connect(), await connect("worker")
    for n in range(2):
        await enqueue_sample(owner, XP_EVENT, f"outlook:{n}")
    manager = await register_worker(conn, uuid4())
    queries, sent = await _listening(conn)

    assert len(await _dequeue(queries, manager)) == 1
    claims = await _count(sent)
    assert await _dequeue(queries, manager) == []
    assert await _count(sent) == claims
    # The wait after it reads the claim's outlook, once; the next dequeue claims again.
    assert queries.take_outlook() == Outlook(queued=True, next_due=None)
    assert queries.take_outlook() is None
    assert await _dequeue(queries, manager) == []
    assert await _count(sent) == claims + 1


async def test_a_notification_since_the_claim_makes_the_next_dequeue_claim(
    connect: Connect,
) -> None:
    owner, conn = await connect(), await connect("worker")
    await enqueue_sample(owner, XP_EVENT, "outlook:first")
    manager = await register_worker(conn, uuid4())
    queries, _ = await _listening(conn)
    assert len(await _dequeue(queries, manager)) == 1
    assert queries.fresh_outlook() == Outlook(queued=False, next_due=None)
    heard = queries.driver.notifications  # type: ignore[attr-defined]

    await enqueue_sample(owner, OTHER, "outlook:other")

    async def notified() -> bool:
        await conn.execute("SELECT 1")  # lets the connection read what the server sent
        return queries.driver.notifications != heard  # type: ignore[attr-defined]

    await eventually(notified, deadline=10, what="the enqueue's notification")
    other = await owner.fetchval("SELECT id FROM pgqueuer WHERE entrypoint = $1", OTHER)
    assert await _dequeue(queries, manager) == [other]


async def test_a_result_written_since_the_claim_makes_the_next_dequeue_claim(
    connect: Connect,
) -> None:
    owner, conn = await connect(), await connect("worker")
    for n in range(2):
        await enqueue_sample(owner, XP_EVENT, f"outlook:{n}")
    manager = await register_worker(conn, uuid4())
    queries, _ = await _listening(conn)
    [first] = await queries.dequeue(1, LIMIT_ONE, manager, 2, STALE)
    heard = queries.driver.notifications  # type: ignore[attr-defined]

    # Held, which sends no notification and frees the event for the second job.
    await queries.log_jobs([(first, "failed", None)])

    second = await owner.fetchval(
        "SELECT id FROM pgqueuer WHERE entrypoint = $1 AND status = 'queued'", XP_EVENT
    )
    assert await _dequeue(queries, manager) == [second]
    assert queries.driver.notifications == heard  # type: ignore[attr-defined]


async def test_the_wait_after_a_claim_follows_pgqueuers_rule_on_its_outlook(
    connect: Connect,
) -> None:
    conn = await connect("worker")
    queries, sent = await _listening(conn)
    manager = FencedQueueManager(queries)
    fallback = timedelta(seconds=5)
    shortest = manager.min_dequeue_poll_interval
    cases = [
        (Outlook(queued=True, next_due=None), shortest),
        (Outlook(queued=True, next_due=timedelta(seconds=2)), timedelta(seconds=2)),
        (Outlook(queued=True, next_due=timedelta(milliseconds=1)), shortest),
        (Outlook(queued=True, next_due=timedelta(seconds=9)), fallback),
        (Outlook(queued=False, next_due=None), fallback),
    ]
    for outlook, wait in cases:
        queries.outlook = outlook
        queries.outlook_notifications = queries.driver.notifications  # type: ignore[attr-defined]
        assert await manager._effective_dequeue_timeout(fallback) == wait
        assert queries.outlook is None
    assert await _count(sent) == 0
    # Without one, the manager reads the queue as PGQueuer does: no deferred job, none queued.
    assert await manager._effective_dequeue_timeout(fallback) == fallback
    assert await _count(sent) == 2


async def test_no_outlook_holds_while_claiming_is_paused(connect: Connect) -> None:
    owner, conn = await connect(), await connect("worker")
    await enqueue_sample(owner, XP_EVENT, "outlook:paused")
    manager = await register_worker(conn, uuid4())
    queries, _ = await _listening(conn)
    assert len(await _dequeue(queries, manager)) == 1
    assert queries.fresh_outlook() is not None

    queries.paused_until = time.monotonic() + 60

    assert queries.fresh_outlook() is None
    assert queries.take_outlook() is None


async def test_a_completion_outside_a_claim_takes_the_next_job_for_the_next_dequeue(
    connect: Connect,
) -> None:
    owner, conn = await connect(), await connect("worker")
    for n in range(2):
        await enqueue_sample(owner, XP_EVENT, f"outlook:{n}")
    manager = await register_worker(conn, uuid4())
    queries, sent = await _listening(conn)
    [first] = await queries.dequeue(1, LIMIT_ONE, manager, 2, STALE)
    second = await owner.fetchval(
        "SELECT id FROM pgqueuer WHERE entrypoint = $1 AND status = 'queued'", XP_EVENT
    )
    heard = queries.driver.notifications  # type: ignore[attr-defined]

    # As PGQueuer's own flush or complete_when_idle writes it: not inside a dequeue.
    await queries.log_jobs([(first, "successful", None)])

    async def woken() -> bool:
        await conn.execute("SELECT 1")  # lets the connection read what the server sent
        return queries.driver.notifications == heard + 1  # type: ignore[attr-defined]

    # The completion's own notification is what wakes PGQueuer's loop.
    await eventually(woken, deadline=10, what="the completion's notification")
    statements = await _count(sent)
    assert await _dequeue(queries, manager) == [second]
    # Nothing was left: the claim after it is not sent, though the completion notified.
    assert await _dequeue(queries, manager) == []
    assert await _count(sent) == statements
    assert await owner.fetchval("SELECT count(*) FROM pgqueuer WHERE id = $1", first.id) == 0


async def test_a_stopping_worker_claims_nothing_more_and_returns_what_it_had_claimed(
    db: Database, connect: Connect
) -> None:
    owner, conn = await connect(), await connect("worker")
    for n in range(3):
        await enqueue_sample(owner, XP_EVENT, f"outlook:{n}")
    manager = await register_worker(conn, uuid4())
    queries, _ = await _listening(conn)
    supervisor = QueueSupervisor(
        owner="bot",
        handlers=dict.fromkeys(BOT_EVENTS, _never_called),
        connect=lambda: asyncpg.connect(db.worker_dsn),
    )
    [first] = await queries.dequeue(1, LIMIT_ONE, manager, 2, STALE)
    await queries.log_jobs([(first, "successful", None)])
    [second] = queries.prefetched

    # The manager stopped before it took the job the completion claimed: it goes back.
    await supervisor._return_unstarted(queries)

    row = await owner.fetchrow(
        "SELECT status::text, queue_manager_id FROM pgqueuer WHERE id = $1", second.id
    )
    assert row is not None and tuple(row) == ("queued", None)
    assert queries.prefetched == [] and second.id not in queries.claims

    # Once stopping, a completion claims nothing with it.
    [again] = await queries.dequeue(1, LIMIT_ONE, manager, 2, STALE)
    queries.stopping = True
    await queries.log_jobs([(again, "successful", None)])
    assert queries.prefetched == []
    queued = await owner.fetchval("SELECT count(*) FROM pgqueuer WHERE status = 'queued'")
    assert queued == 1


async def _never_called(payload: object, context: object) -> None:
    raise AssertionError("no job runs here")


async def test_completions_written_side_by_side_leave_no_claimed_job_behind(
    connect: Connect,
) -> None:
    owner, conn = await connect(), await connect("worker")
    for event in (XP_EVENT, OTHER):
        for n in range(2):
            await enqueue_sample(owner, event, f"outlook:{event}:{n}")
    manager = await register_worker(conn, uuid4())
    queries, _ = await _listening(conn)
    queries.claim_batch = 2
    first, second = await queries.dequeue(1, LIMIT_ONE, manager, 4, STALE)

    # As two of PGQueuer's flushes can: both inside log_jobs at once.
    await asyncio.gather(
        queries.log_jobs([(first, "successful", None)]),
        queries.log_jobs([(second, "successful", None)]),
    )

    # Every job still claimed is one PGQueuer's next dequeue takes.
    assert queries.prefetched
    assert set(queries.claims) == {job.id for job in queries.prefetched}
    picked = await owner.fetch("SELECT id FROM pgqueuer WHERE status = 'picked'")
    assert {r["id"] for r in picked} == set(queries.claims)


async def test_jobs_claimed_with_a_completion_go_back_when_claiming_pauses(
    connect: Connect,
) -> None:
    owner, conn = await connect(), await connect("worker")
    for n in range(2):
        await enqueue_sample(owner, XP_EVENT, f"outlook:{n}")
    manager = await register_worker(conn, uuid4())
    queries, _ = await _listening(conn)
    [first] = await queries.dequeue(1, LIMIT_ONE, manager, 2, STALE)
    await queries.log_jobs([(first, "successful", None)])
    [second] = queries.prefetched

    queries.paused_until = time.monotonic() + 60

    assert await _dequeue(queries, manager) == []
    row = await owner.fetchrow(
        "SELECT status::text, queue_manager_id FROM pgqueuer WHERE id = $1", second.id
    )
    assert row is not None and tuple(row) == ("queued", None)
    assert queries.prefetched == [] and queries.claims == {}
