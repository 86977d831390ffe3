"""Behaviour PGQueuer 1.1.1 lacks on its own, closed by the worker runtime and SQL gates."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.support.harness import Stack, Worker, eventually, sample

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]


async def test_job_that_kills_its_worker_is_eventually_held(stack: Stack) -> None:
    stack.recorder.command("*:before", "crash")
    job = await stack.enqueue("xp:killer")
    for _ in range(6):  # a process manager restarting the crashed worker each time
        worker = stack.start_worker()

        async def crashed_or_held(worker: Worker = worker) -> bool:
            return worker.process.poll() is not None or await stack.status(job) == "failed"

        await eventually(crashed_or_held, 30, "the worker to crash or the job to be held")
        if await stack.status(job) == "failed":
            break
    row = await stack.job(job)
    assert (row["queue_status"], row["error_code"]) == ("failed", "WorkerLost")
    assert "stopped while running this job 3 times" in row["error_msg"]
    assert row["handler_failures"] == 0


async def test_retry_wakes_an_idle_worker_without_waiting_for_the_poll(stack: Stack) -> None:
    stack.recorder.command("*:announce", "fail:1")
    stack.start_worker(GENJI_QUEUE_POLLING_FALLBACK="30")
    await eventually(
        lambda: stack.value("SELECT count(*) FROM queue_workers"), 20, "worker registration"
    )
    job = await stack.enqueue("xp:wake")
    await stack.until_recorded("announce", "failed")
    failed_at = time.monotonic()
    await stack.until_status(job, "succeeded", deadline=10)
    assert time.monotonic() - failed_at < 5  # the 30 s poll was not what woke it


async def test_dependent_waits_for_its_parent_then_runs(stack: Stack) -> None:
    stack.recorder.command("api.playtest.create:announce", "hang")
    stack.start_worker()
    parent = await stack.enqueue(
        "playtest:1", event="api.playtest.create", payload=sample("api.playtest.create")
    )
    child = await stack.enqueue("xp:child", entity="user:5", depends_on=parent)
    unrelated = await stack.enqueue("xp:unrelated", entity="user:6")
    await stack.until_status(unrelated, "succeeded")
    assert await stack.status(child) == "queued"  # deferred, not occupying a handler
    stack.recorder.command("api.playtest.create:announce", "complete")
    await stack.until_status(child, "succeeded")
    assert await stack.status(parent) == "succeeded"


async def test_dependent_held_for_a_failed_parent_resumes_when_the_parent_later_succeeds(
    stack: Stack,
) -> None:
    stack.recorder.command("api.playtest.create:announce", "fail")
    stack.start_worker()
    parent = await stack.enqueue(
        "playtest:2", event="api.playtest.create", payload=sample("api.playtest.create")
    )
    child = await stack.enqueue("xp:child-2", entity="user:7", depends_on=parent)
    await stack.until_status(child, "failed")
    assert (await stack.job(child))["error_code"] == "DependencyFailed"

    stack.recorder.command("api.playtest.create:announce", "complete")
    retried = await stack.sql(
        "SELECT outcome FROM recovery_retry($1, 0, 'retry-parent', 1098765432109876543)", parent
    )
    assert retried[0]["outcome"] == "accepted"
    await stack.until_status(parent, "succeeded")
    await stack.until_status(child, "succeeded")


async def test_later_event_of_an_entity_waits_for_the_earlier_one(stack: Stack) -> None:
    stack.recorder.command("api.xp.grant:announce", "hang")
    stack.start_worker()
    first = await stack.enqueue("xp:first", entity="user:1")
    second = await stack.enqueue(
        "notify:second",
        event="api.notification.delivery",
        entity="user:1",
        payload=sample("api.notification.delivery"),
    )
    await stack.until_recorded("announce")
    await asyncio.sleep(1.0)
    assert [e["event"] for e in stack.recorder.events() if e["stage"] == "start"].count(
        "api.notification.delivery"
    ) == 0
    assert await stack.status(second) == "queued"
    stack.recorder.command("api.xp.grant:announce", "complete")
    await stack.until_status(second, "succeeded")
    starts = [
        e["job_id"]
        for e in stack.recorder.events()
        if e["effect"] == "before" and e["stage"] == "start"
    ]
    assert starts.index(str(first)) < starts.index(str(second))


async def test_worker_exits_non_zero_when_its_manager_cannot_run(stack: Stack) -> None:
    await stack.sql("REVOKE REFERENCES (id) ON pgqueuer_statistics FROM genjishimada_queue_worker")
    worker = stack.start_worker()
    assert worker.wait(20) == 1
    assert "queue worker died" in worker.log()
