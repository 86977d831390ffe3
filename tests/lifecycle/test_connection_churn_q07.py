"""Q07 under churn: a worker whose queue connection is terminated over and over keeps running.

A terminated backend can surface inside PGQueuer at any point of its cycle (a dequeue, a log or
heartbeat flush, a listener call), as whatever error asyncpg raises there; every one of them
must be taken as a lost connection, never as a reason for the process to exit.
"""

from __future__ import annotations

import asyncio
import random
import time
from uuid import UUID

import pytest

from tests.support.harness import Stack, Worker, eventually, sample

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

TERMINATIONS = 160
CHURN_DEADLINE = 40.0
# Bot entrypoints without entity ordering or dependencies, so jobs run side by side.
EVENTS = ("api.xp.grant", "api.completion.upvote", "api.playtest.vote.cast", "api.newsfeed.create")
QUEUE_BACKEND = "genji-bot-worker"


async def terminate_repeatedly(stack: Stack, times: int, worker: Worker) -> int:
    """Terminate the worker's queue backend `times` times, each at a random point after it
    reconnected; returns how many terminations landed."""
    conn = await stack.admin_connect()
    landed = 0
    terminated: list[int] = []
    end = time.monotonic() + CHURN_DEADLINE
    try:
        while landed < times and time.monotonic() < end and worker.process.poll() is None:
            pid = await conn.fetchval(
                "SELECT pid FROM pg_stat_activity WHERE application_name = $1"
                " AND NOT (pid = ANY($2::int[])) ORDER BY backend_start DESC LIMIT 1",
                QUEUE_BACKEND,
                terminated,
            )
            if pid is None:
                await asyncio.sleep(0.005)
                continue
            await asyncio.sleep(random.uniform(0.0, 0.15))
            if await conn.fetchval("SELECT pg_terminate_backend($1)", pid):
                landed += 1
            terminated.append(pid)
    finally:
        await conn.close()
    return landed


async def produce(stack: Stack, stop: asyncio.Event, jobs: list[UUID]) -> None:
    n = 0
    while not stop.is_set():
        event = EVENTS[n % len(EVENTS)]
        jobs.append(await stack.enqueue(f"churn:{n}", event=event, payload=sample(event)))
        n += 1
        await asyncio.sleep(0.05)


async def test_q07_worker_survives_repeated_backend_termination_with_jobs_flowing(
    stack: Stack,
) -> None:
    worker = stack.start_worker()
    first = await stack.enqueue("churn:warm-up")
    await stack.until_status(first, "succeeded")

    jobs: list[UUID] = [first]
    stop = asyncio.Event()
    producer = asyncio.create_task(produce(stack, stop, jobs))
    try:
        landed = await terminate_repeatedly(stack, TERMINATIONS, worker)
    finally:
        stop.set()
        await producer
    assert worker.process.poll() is None, f"worker exited:\n{worker.log()[-4000:]}"
    assert landed >= 150, f"only {landed} terminations landed"

    async def all_settled() -> bool:
        pending = await stack.value(
            "SELECT count(*) FROM unnest($1::uuid[]) AS t(id)"
            " WHERE (SELECT status FROM job_public_status(t.id)) <> 'succeeded'",
            jobs,
        )
        return pending == 0

    await eventually(all_settled, 30, f"all {len(jobs)} jobs to succeed")
    assert worker.process.poll() is None

    # Exactly one success per job: one completion in the queue log, one guarded mutation.
    rows = await stack.sql(
        """SELECT j.id,
                  (SELECT count(*) FROM pgqueuer_log l
                   WHERE l.job_id = j.queue_job_id AND l.status = 'successful') AS completions,
                  coalesce((SELECT sum(applied) FROM effect_tally t WHERE t.job_id = j.id), 0)
                      AS applied
           FROM jobs j WHERE j.id = ANY($1::uuid[])""",
        jobs,
    )
    assert len(rows) == len(jobs)
    wrong = [(r["id"], r["completions"], r["applied"]) for r in rows if (r[1], r[2]) != (1, 1)]
    assert not wrong, f"jobs not completed exactly once: {wrong[:10]}"
    finished = {
        e["job_id"]
        for e in stack.recorder.events()
        if e["effect"] == "after" and e["stage"] == "done"
    }
    assert finished >= {str(j) for j in jobs}

    log = worker.log()
    assert "queue worker died" not in log
    assert " ERROR " not in log, "an expected outage was logged as an error"
    # PGQueuer retries its buffer flushes on the dead connection: one line per outage at most,
    # counting its shutdown-time flush warnings too.
    outages = log.count("queue connection lost; cancelling")
    assert log.count("Flush failed") <= outages
    assert log.lower().count("flush failed") <= outages
