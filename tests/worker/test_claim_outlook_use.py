"""How the fenced adapter saves PGQueuer's round trips, and what it must not lose doing so.

After a claim that took jobs and left nothing another claim could take, PGQueuer's next claim
is not sent, unless a notification arrived or the adapter wrote a result since; the outlook is
used once. A completion written outside a dequeue claims the next jobs with it, for PGQueuer's
next dequeue; none of them is left behind, whether completions run side by side, claiming
pauses or the worker stops."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from datetime import timedelta
from uuid import UUID, uuid4

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


@dataclasses.dataclass
class Adapter:
    owner: asyncpg.Connection
    conn: asyncpg.Connection
    manager: UUID
    queries: FencedQueries
    sent: list[str]

    async def dequeue(self) -> list[int]:
        return await _dequeue(self.queries, self.manager)

    async def hear(self, count: int) -> None:
        """Wait until the connection has received `count` notifications in all."""

        async def heard() -> bool:
            await self.conn.execute("SELECT 1")  # lets the connection read what the server sent
            return self.queries.driver.notifications == count  # type: ignore[attr-defined]

        await eventually(heard, deadline=10, what=f"notification {count}")

    async def queue_state(self, queue_id: int) -> tuple[str, UUID | None]:
        row = await self.owner.fetchrow(
            "SELECT status::text, queue_manager_id FROM pgqueuer WHERE id = $1", queue_id
        )
        assert row is not None
        return row[0], row[1]


async def _adapter(connect: Connect, jobs: int) -> Adapter:
    """A listening adapter of a registered manager, with `jobs` XP jobs queued (entities of their
    own)."""
    owner, conn = await connect(), await connect("worker")
    for n in range(jobs):
        await enqueue_sample(owner, XP_EVENT, f"outlook:{n}")
    manager = await register_worker(conn, uuid4())
    queries, sent = await _listening(conn)
    return Adapter(owner, conn, manager, queries, sent)


def _notifications(queries: FencedQueries) -> int:
    heard = queries.driver.notifications  # type: ignore[attr-defined]
    assert isinstance(heard, int)
    return heard


async def _never_called(payload: object, context: object) -> None:
    raise AssertionError("no job runs here")


async def _dequeue(queries: FencedQueries, manager: object) -> list[int]:
    jobs = await queries.dequeue(1, LIMIT_ONE, manager, 2, STALE)  # type: ignore[arg-type]
    return [job.id for job in jobs]


async def test_after_a_claim_that_left_nothing_the_next_one_is_not_sent(
    connect: Connect,
) -> None:
    a = await _adapter(connect, 2)

    assert len(await a.dequeue()) == 1
    claims = await _count(a.sent)
    assert await a.dequeue() == []
    assert await _count(a.sent) == claims
    # The wait after it reads the claim's outlook, once; the next dequeue claims again.
    assert a.queries.take_outlook() == Outlook(queued=True, next_due=None)
    assert a.queries.take_outlook() is None
    assert await a.dequeue() == []
    assert await _count(a.sent) == claims + 1


async def test_a_notification_since_the_claim_makes_the_next_dequeue_claim(
    connect: Connect,
) -> None:
    a = await _adapter(connect, 1)
    assert len(await a.dequeue()) == 1
    assert a.queries.fresh_outlook() == Outlook(queued=False, next_due=None)
    heard = _notifications(a.queries)

    await enqueue_sample(a.owner, OTHER, "outlook:other")

    await a.hear(heard + 1)
    other = await a.owner.fetchval("SELECT id FROM pgqueuer WHERE entrypoint = $1", OTHER)
    assert await a.dequeue() == [other]


async def test_a_result_written_since_the_claim_makes_the_next_dequeue_claim(
    connect: Connect,
) -> None:
    a = await _adapter(connect, 2)
    [first] = await a.queries.dequeue(1, LIMIT_ONE, a.manager, 2, STALE)
    heard = _notifications(a.queries)

    # Held, which frees the event for the second job.
    await a.queries.log_jobs([(first, "failed", None)])

    # The hold's notification drops any outlook too, but it may be read only once the next
    # dequeue has begun; counted here as if it had come before the claim, only the result
    # written can make that dequeue claim.
    await a.hear(heard + 1)
    a.queries.outlook_notifications = heard + 1
    second = await a.owner.fetchval(
        "SELECT id FROM pgqueuer WHERE entrypoint = $1 AND status = 'queued'", XP_EVENT
    )
    assert await a.dequeue() == [second]


async def test_the_wait_after_a_claim_follows_pgqueuers_rule_on_its_outlook(
    connect: Connect,
) -> None:
    a = await _adapter(connect, 0)
    manager = FencedQueueManager(a.queries)
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
        a.queries.outlook = outlook
        a.queries.outlook_notifications = _notifications(a.queries)
        assert await manager._effective_dequeue_timeout(fallback) == wait
        assert a.queries.outlook is None
    assert await _count(a.sent) == 0
    # Without one, the manager reads the queue as PGQueuer does: no deferred job, none queued.
    assert await manager._effective_dequeue_timeout(fallback) == fallback
    assert await _count(a.sent) == 2


async def test_no_outlook_holds_while_claiming_is_paused(connect: Connect) -> None:
    a = await _adapter(connect, 1)
    assert len(await a.dequeue()) == 1
    assert a.queries.fresh_outlook() is not None

    a.queries.paused_until = time.monotonic() + 60

    assert a.queries.fresh_outlook() is None
    assert a.queries.take_outlook() is None


async def test_a_completion_outside_a_claim_takes_the_next_job_for_the_next_dequeue(
    connect: Connect,
) -> None:
    a = await _adapter(connect, 2)
    [first] = await a.queries.dequeue(1, LIMIT_ONE, a.manager, 2, STALE)
    second = await a.owner.fetchval(
        "SELECT id FROM pgqueuer WHERE entrypoint = $1 AND status = 'queued'", XP_EVENT
    )
    heard = _notifications(a.queries)

    # As PGQueuer's own flush or complete_when_idle writes it: not inside a dequeue.
    await a.queries.log_jobs([(first, "successful", None)])

    # The completion's own notification is what wakes PGQueuer's loop.
    await a.hear(heard + 1)
    statements = await _count(a.sent)
    assert await a.dequeue() == [second]
    # Nothing was left: the claim after it is not sent, though the completion notified.
    assert await a.dequeue() == []
    assert await _count(a.sent) == statements
    assert await a.owner.fetchval("SELECT count(*) FROM pgqueuer WHERE id = $1", first.id) == 0


async def test_a_stopping_worker_claims_nothing_more_and_returns_what_it_had_claimed(
    db: Database, connect: Connect
) -> None:
    a = await _adapter(connect, 3)
    supervisor = QueueSupervisor(
        owner="bot",
        handlers=dict.fromkeys(BOT_EVENTS, _never_called),
        connect=lambda: asyncpg.connect(db.worker_dsn),
    )
    [first] = await a.queries.dequeue(1, LIMIT_ONE, a.manager, 2, STALE)
    await a.queries.log_jobs([(first, "successful", None)])
    [second] = a.queries.prefetched

    # The manager stopped before it took the job the completion claimed: it goes back.
    await supervisor._return_unstarted(a.queries)

    assert await a.queue_state(second.id) == ("queued", None)
    assert a.queries.prefetched == [] and second.id not in a.queries.claims

    # Once stopping, a completion claims nothing with it.
    [again] = await a.queries.dequeue(1, LIMIT_ONE, a.manager, 2, STALE)
    a.queries.stopping = True
    await a.queries.log_jobs([(again, "successful", None)])
    assert a.queries.prefetched == []
    queued = await a.owner.fetchval("SELECT count(*) FROM pgqueuer WHERE status = 'queued'")
    assert queued == 1


async def test_completions_written_side_by_side_leave_no_claimed_job_behind(
    connect: Connect,
) -> None:
    a = await _adapter(connect, 2)
    for n in range(2):
        await enqueue_sample(a.owner, OTHER, f"outlook:{OTHER}:{n}")
    a.queries.claim_batch = 2
    first, second = await a.queries.dequeue(1, LIMIT_ONE, a.manager, 4, STALE)

    # As two of PGQueuer's flushes can: both inside log_jobs at once.
    await asyncio.gather(
        a.queries.log_jobs([(first, "successful", None)]),
        a.queries.log_jobs([(second, "successful", None)]),
    )

    # Every job still claimed is one PGQueuer's next dequeue takes.
    assert a.queries.prefetched
    assert set(a.queries.claims) == {job.id for job in a.queries.prefetched}
    picked = await a.owner.fetch("SELECT id FROM pgqueuer WHERE status = 'picked'")
    assert {r["id"] for r in picked} == set(a.queries.claims)


async def test_jobs_claimed_with_a_completion_go_back_when_claiming_pauses(
    connect: Connect,
) -> None:
    a = await _adapter(connect, 2)
    [first] = await a.queries.dequeue(1, LIMIT_ONE, a.manager, 2, STALE)
    await a.queries.log_jobs([(first, "successful", None)])
    [second] = a.queries.prefetched

    a.queries.paused_until = time.monotonic() + 60

    assert await a.dequeue() == []
    assert await a.queue_state(second.id) == ("queued", None)
    assert a.queries.prefetched == [] and a.queries.claims == {}
