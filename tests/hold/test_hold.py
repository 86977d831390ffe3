"""queue_hold, reached through queue_fail once the failure schedule is spent, or called by a
worker for a job that cannot run."""

import asyncio
from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim
from genji_queue.hold import queue_hold
from genji_worker.claims import claim_of
from pgqueuer.models import Job

from tests.support.queue_helpers import (
    GATE_WAIT,
    XP_EVENT,
    claim_next,
    enqueue_xp,
    register_worker,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

DELAYS = [timedelta(milliseconds=1), timedelta(milliseconds=2), timedelta(milliseconds=3)]
ERROR = '{"exception_type": "Boom", "exception_message": "handler failed"}'


async def test_handler_failures_follow_the_schedule_then_hold(connect: Connect) -> None:
    conn = await connect()
    job = await enqueue_xp(conn, "xp:1")
    outcomes = []
    for _ in range(len(DELAYS) + 1):
        claimed = None
        while claimed is None:  # wait out the (millisecond) retry delay
            claimed = await claim_next(conn, uuid4())
        outcomes.append(
            await conn.fetchval(
                f"SELECT queue_fail($1, $2, $3, $4, '{ERROR}')",
                claimed.id,
                claimed.queue_manager_id,
                claimed.updated,
                DELAYS,
            )
        )
    assert outcomes == ["retry", "retry", "retry", "held"]
    row = await conn.fetchrow(
        "SELECT j.handler_failures, j.retry_generation, j.error_msg, j.held_at, q.status::text, q.attempts "
        "FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = $1",
        job.id,
    )
    assert row is not None
    assert (row["handler_failures"], row["retry_generation"], row["status"], row["attempts"]) == (
        4,
        0,
        "failed",
        3,
    )
    assert row["error_msg"] == "handler failed" and row["held_at"] is not None
    assert await conn.fetchval("SELECT count(*) FROM jobs") == 1  # no new logical job


async def test_a_worker_holding_a_job_wakes_idle_workers_for_its_event(connect: Connect) -> None:
    owner, worker, listener = await connect(), await connect("worker"), await connect()
    manager = await register_worker(worker, uuid4())
    for n in range(2):
        await enqueue_xp(owner, f"xp:hold-wakes:{n}", grant_id=n + 1, user_id=n + 1)
    (first,) = (await queue_claim(worker, manager, [XP_EVENT], 1, None, GATE_WAIT)).jobs
    woke = asyncio.Event()
    await listener.add_listener("ch_pgqueuer", lambda *_: woke.set())

    assert await queue_hold(worker, claim_of(Job.model_validate(first.row)), None)

    # The held job no longer runs: the event's second job may start, and idle workers hear so
    # at once instead of at their next poll.
    await asyncio.wait_for(woke.wait(), timeout=5)
    (second,) = (await queue_claim(worker, manager, [XP_EVENT], 1, None, GATE_WAIT)).jobs
    assert second.row["id"] != first.row["id"]
