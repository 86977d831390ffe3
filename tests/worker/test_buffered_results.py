"""What PGQueuer's buffer of results still holds once a flush failed on a dead connection: the
successes, which the supervisor completes on its next connection, and never a result the
executor settled itself (an interrupted execution PGQueuer counts as successful)."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

import pytest
from genji_sdk import REGISTRY
from genji_worker.claims import FencedQueries, claim_of
from genji_worker.driver import DeadlineDriver
from pgqueuer.core.buffers import JobStatusLogBuffer
from pgqueuer.ports.repository import EntrypointExecutionParameter

from tests.support.queue_helpers import XP_EVENT, enqueue_sample, register_worker
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

BOT_EVENTS = [spec.name for spec in REGISTRY.owned_by("bot")]
OTHER = next(name for name in BOT_EVENTS if name != XP_EVENT)
LIMIT_ONE = {name: EntrypointExecutionParameter(concurrency_limit=1) for name in BOT_EVENTS}


async def test_a_failed_flush_leaves_the_successes_and_not_the_settled_results(
    connect: Connect,
) -> None:
    owner, conn, admin = await connect(), await connect("worker"), await connect("admin")
    await enqueue_sample(owner, XP_EVENT, "buffered:interrupted")
    await enqueue_sample(owner, OTHER, "buffered:succeeded")
    manager = await register_worker(conn, uuid4())
    queries = FencedQueries(DeadlineDriver(conn, timedelta(seconds=5)))
    jobs = await queries.dequeue(2, LIMIT_ONE, manager, 4, timedelta(seconds=60))
    [interrupted] = [job for job in jobs if job.entrypoint == XP_EVENT]
    [succeeded] = [job for job in jobs if job.entrypoint == OTHER]
    # The executor met the dead connection in its own write: it keeps the claim for release,
    # and PGQueuer records the execution as successful.
    queries.settled.add(claim_of(interrupted))
    buffer = JobStatusLogBuffer(max_size=10, repository=queries)
    queries.completions = buffer
    for job in (interrupted, succeeded):
        await buffer.events.put((job, "successful", None))
    assert await admin.fetchval("SELECT pg_terminate_backend($1, 5000)", conn.get_server_pid())

    # PGQueuer puts the whole batch back when its write fails, and tries again.
    for _ in range(2):
        await buffer.flush()
        assert buffer.events.qsize() == 2

    assert queries.take_buffered_successes() == {claim_of(succeeded)}
    assert buffer.events.empty()
