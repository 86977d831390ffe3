"""Lifecycle acceptance: real worker processes, real SIGKILL/SIGTERM, a real crashing cluster."""

from __future__ import annotations

import asyncio
import signal

import pytest

from tests.support.harness import (
    FAST_STALE_HEARTBEAT,
    Stack,
    active_claim,
    eventually,
    log_rows,
    manager_of,
    recorded_claims,
    sample,
    until_logged,
)

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]


async def test_q03_job_accepted_while_worker_offline_is_delivered_after_start(stack: Stack) -> None:
    job = await stack.enqueue("xp:offline")
    assert await stack.status(job) == "queued"
    stack.start_worker()
    await stack.until_status(job, "succeeded")
    assert await stack.tally(job) == 1
    assert stack.recorder.count("announce") == 1


@pytest.mark.parametrize(
    ("kill_at", "announcements"),
    # The recorder's announce has no send binding, so a kill after it repeats the send; what
    # must never repeat is the receipt-guarded database mutation.
    [("before", 1), ("announce", 1), ("after", 2)],
    ids=["Q05-before-effects", "Q05-between-effects", "Q05-after-effects-inside-the-handler"],
)
async def test_q05_killed_worker_recovers_without_repeating_the_mutation(
    stack: Stack, kill_at: str, announcements: int
) -> None:
    recorder = stack.recorder
    recorder.command(f"*:{kill_at}", "hang")
    first = stack.start_worker()
    job = await stack.enqueue("xp:q05")
    await stack.until_recorded(kill_at)
    first.signal(signal.SIGKILL)
    first.wait()

    recorder.command(f"*:{kill_at}", "complete")
    stack.start_worker()
    await stack.until_status(job, "succeeded")
    assert await stack.tally(job) == 1
    assert recorder.count("announce") == announcements
    row = await stack.job(job)
    assert row["handler_failures"] == 0


async def test_q05_killed_after_the_handler_returned_before_completion_is_persisted(
    stack: Stack,
) -> None:
    first = stack.start_worker(GENJI_FAULT_POINT="before-complete")
    job = await stack.enqueue("xp:q05-before-completion")
    assert first.wait() == -signal.SIGKILL
    # The kill landed after the handler returned and before its completion was written.
    assert stack.recorder.count("after", "done", pid=first.process.pid) == 1
    assert (await active_claim(stack, job)).status == "picked"
    assert await log_rows(stack, job, "successful") == []
    assert await stack.tally(job) == 1

    second = stack.start_worker()
    await stack.until_status(job, "succeeded")
    assert stack.recorder.count("after", "done", pid=second.process.pid) == 1
    assert len(await log_rows(stack, job, "successful")) == 1
    assert await stack.tally(job) == 1
    assert (await stack.job(job))["handler_failures"] == 0


async def test_q06_drain_timeout_returns_unfinished_work_and_closes_in_order(stack: Stack) -> None:
    stack.recorder.command("*:announce", "hang")
    worker = stack.start_worker()
    job = await stack.enqueue("xp:q06")
    await stack.until_recorded("announce")
    manager = await stack.value("SELECT queue_manager_id FROM pgqueuer")

    worker.signal(signal.SIGTERM)
    assert worker.wait(10) == 0
    row = await stack.job(job)
    assert (row["queue_status"], row["queue_manager_id"], row["handler_failures"]) == (
        "queued",
        None,
        0,
    )
    assert (
        await stack.value("SELECT count(*) FROM queue_workers WHERE manager_id = $1", manager) == 0
    )
    log = worker.log()
    assert log.index("drain timeout reached") < log.index("bot worker stopped")
    assert " ERROR " not in log

    stack.recorder.command("*:announce", "complete")
    stack.start_worker()
    await stack.until_status(job, "succeeded")
    assert await stack.tally(job) == 1


async def test_q06_shutdown_with_the_database_down_leaves_work_for_stale_recovery(
    stack: Stack,
) -> None:
    stack.recorder.command("*:announce", "hang")
    worker = stack.start_worker()
    job = await stack.enqueue("xp:q06-db-down")
    await stack.until_recorded("announce")
    stack.cluster.stop()
    worker.signal(signal.SIGTERM)
    assert worker.wait(20) == 0  # bounded: drain, cancel, then give up on the dead database
    stack.cluster.start()
    assert (await stack.job(job))["queue_status"] == "picked"  # nothing terminal was written

    stack.recorder.command("*:announce", "complete")
    stack.start_worker()
    await stack.until_status(job, "succeeded")
    assert (await stack.job(job))["handler_failures"] == 0
    assert await stack.tally(job) == 1


async def test_q06_drain_stops_claiming_and_keeps_heartbeats_past_the_stale_threshold(
    stack: Stack,
) -> None:
    stack.recorder.command("*:announce", "hang")
    draining = stack.start_worker(GENJI_QUEUE_DRAIN_TIMEOUT="8")
    job = await stack.enqueue("xp:q06-drain")
    await stack.until_recorded("announce")
    claim = await active_claim(stack, job)
    rival = stack.start_worker()  # takes the claim over as soon as its heartbeat goes stale
    await manager_of(stack, rival)

    draining.signal(signal.SIGTERM)
    await until_logged(draining, "claiming stopped")
    drain_began = await stack.value("SELECT now()")
    stale_after = FAST_STALE_HEARTBEAT

    async def beaten_past_the_stale_threshold() -> bool:
        now = await active_claim(stack, job)
        assert now.token == claim.token, "the draining worker's claim was taken over"
        assert now.heartbeat is not None
        return now.heartbeat > drain_began + stale_after * 1.5

    await eventually(beaten_past_the_stale_threshold, 10, "heartbeats during the drain")
    assert stack.recorder.count("before", "start", pid=rival.process.pid) == 0
    rival.signal(signal.SIGTERM)
    assert rival.wait(10) == 0

    later = await stack.enqueue(
        "notification:q06-drain",
        event="api.notification.delivery",
        payload=sample("api.notification.delivery"),
    )
    stack.recorder.command("*:announce", "complete")
    assert draining.wait(15) == 0
    # Claiming stopped before the drain: the job enqueued meanwhile was left for others.
    assert [e for e in stack.recorder.events() if e["job_id"] == str(later)] == []
    assert await stack.status(later) == "queued"
    assert await stack.status(job) == "succeeded"
    assert "drain timeout reached" not in draining.log()

    stack.start_worker()
    await stack.until_status(later, "succeeded")


async def test_q07_lost_queue_connection_stops_its_executions_and_work_resumes(
    stack: Stack,
) -> None:
    stack.recorder.command("*:announce", "hang")
    worker = stack.start_worker()
    job = await stack.enqueue("xp:q07-terminate")
    await stack.until_recorded("announce")
    (old,) = recorded_claims(stack, job)
    await stack.admin_sql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'genjishimada_queue_worker'"
    )
    await until_logged(worker, "queue connection lost; cancelling its executions")
    # From here on the effect may proceed: only an execution that was not stopped would.
    stack.recorder.command("*:announce", "complete")
    await stack.until_status(job, "succeeded")

    assert stack.recorder.execution(old.manager, old.claimed_at) == [
        ("before", "start"),
        ("before", "done"),
        ("announce", "start"),
        ("announce", "cancelled"),
    ]
    executions = recorded_claims(stack, job)
    assert len(executions) == 2
    assert stack.recorder.execution(executions[1].manager, executions[1].claimed_at)[-1] == (
        "after",
        "done",
    )
    assert len(await log_rows(stack, job, "successful")) == 1
    later = await stack.enqueue("xp:q07-after")
    await stack.until_status(later, "succeeded", deadline=5)
    assert worker.process.poll() is None
    assert (await stack.job(job))["handler_failures"] == 0
    assert await stack.tally(job) == 1


async def test_q07_cluster_crash_and_restart_resumes_within_seconds(stack: Stack) -> None:
    stack.recorder.command("*:announce", "hang")
    worker = stack.start_worker()
    job = await stack.enqueue("xp:q07-crash")
    await stack.until_recorded("announce")

    stack.cluster.kill9()
    await asyncio.sleep(0.5)
    stack.cluster.start()
    stack.recorder.command("*:announce", "complete")

    await stack.until_status(job, "succeeded", deadline=15)
    later = await stack.enqueue("xp:q07-after-crash")
    await stack.until_status(later, "succeeded", deadline=5)
    assert worker.process.poll() is None
    assert (await stack.job(job))["handler_failures"] == 0
    assert await stack.tally(job) == 1


async def test_q07_database_restart_with_shutdown_window_reconnects(stack: Stack) -> None:
    worker = stack.start_worker()
    first = await stack.enqueue("xp:q07-before-restart")
    await stack.until_status(first, "succeeded")
    for _ in range(2):  # connection attempts land in the shutting-down / starting-up windows
        stack.cluster.restart()
        job = await stack.enqueue(f"xp:q07-restart-{_}")
        await stack.until_status(job, "succeeded", deadline=10)
    assert worker.process.poll() is None
    assert "queue worker died" not in worker.log()


async def test_q07_api_outage_defers_without_consuming_the_failure_budget(stack: Stack) -> None:
    stack.recorder.command("*:announce", "outage")
    worker = stack.start_worker()
    job = await stack.enqueue("xp:q07-outage")

    async def deferred_three_times() -> bool:
        return stack.recorder.count("announce", "outage") >= 3

    await eventually(deferred_three_times, 20, "three outage deferrals")
    row = await stack.job(job)
    assert row["handler_failures"] == 0 and row["queue_status"] in ("queued", "picked")
    stack.recorder.command("*:announce", "complete")
    await stack.until_status(job, "succeeded")
    assert (await stack.job(job))["handler_failures"] == 0
    assert await stack.tally(job) == 1
    log = worker.log()  # one line per outage and per recovery, not one per attempt
    assert log.count("discord unavailable") == 1 and log.count("available again") == 1


async def test_q08_two_overlapping_workers_never_duplicate_or_overlap(stack: Stack) -> None:
    stack.start_worker()
    stack.start_worker()

    async def both_workers_up() -> bool:
        return await stack.value("SELECT count(*) FROM queue_workers") == 2

    await eventually(both_workers_up, 20, "two registered workers")
    jobs = [await stack.enqueue(f"xp:q08-{n}", entity=f"user:{n}") for n in range(8)]
    for job in jobs:
        await stack.until_status(job, "succeeded")
    for job in jobs:
        assert await stack.tally(job) == 1
    # Per-entrypoint concurrency 1 across both processes: executions never interleave.
    events = [e for e in stack.recorder.events() if e["effect"] in ("before", "after")]
    open_jobs: set[str] = set()
    for event in events:
        if event["effect"] == "before" and event["stage"] == "start":
            assert not open_jobs, f"{event['job_id']} started while {open_jobs} ran"
            open_jobs.add(event["job_id"])
        elif event["effect"] == "after" and event["stage"] == "done":
            open_jobs.discard(event["job_id"])


async def test_q08_resumed_stale_worker_cannot_touch_the_replacements_claim(
    stack: Stack,
) -> None:
    stack.recorder.command("*:announce", "hang")
    stale = stack.start_worker()
    job = await stack.enqueue("xp:q08-stale")
    await stack.until_recorded("announce")
    stale.signal(signal.SIGSTOP)  # frozen mid-job: its heartbeats stop

    replacement = stack.start_worker()

    async def replacement_hangs_in_the_effect() -> bool:
        return stack.recorder.count("announce", "start", pid=replacement.process.pid) == 1

    await eventually(replacement_hangs_in_the_effect, 20, "the replacement to reclaim the job")
    held = await active_claim(stack, job)
    assert held.status == "picked" and held.manager == await manager_of(stack, replacement)
    assert [c.token for c in recorded_claims(stack, job, replacement.process.pid)] == [held.token]

    # The stale worker wakes up while the replacement still runs the job: its handler goes on,
    # and it tries its heartbeat and terminal writes with its old claim.
    (old,) = recorded_claims(stack, job, stale.process.pid)
    stack.recorder.command("*:announce", "complete", pid=stale.process.pid)
    stale.signal(signal.SIGCONT)

    async def stale_execution_ended() -> bool:
        last = stack.recorder.execution(old.manager, old.claimed_at)[-1]
        return last in (("after", "done"), ("announce", "cancelled"))

    await eventually(stale_execution_ended, 15, "the resumed worker to finish its execution")
    stale.signal(signal.SIGTERM)
    assert stale.wait(15) == 0  # whatever it still had to write was attempted before exit

    now = await active_claim(stack, job)
    assert (now.status, now.token) == ("picked", held.token)
    assert await log_rows(stack, job, "successful") == []

    released = await stack.value("SELECT now()")
    stack.recorder.command("*:announce", "complete")
    await stack.until_status(job, "succeeded")
    (completed,) = await log_rows(stack, job, "successful")
    assert completed >= released  # written by the replacement, after the stale worker exited
    assert stack.recorder.count("after", "done", pid=replacement.process.pid) == 1
    assert "taken over" not in replacement.log()
    assert await stack.tally(job) == 1


async def test_q13_poison_payload_and_held_dependency_do_not_block_other_jobs(stack: Stack) -> None:
    stack.recorder.command("api.playtest.create:announce", "fail")
    poison = await stack.enqueue("xp:poison")
    await stack.corrupt_payload(poison, "user_id", "not-a-number")
    parent = await stack.enqueue(
        "playtest:create:1", event="api.playtest.create", payload=sample("api.playtest.create")
    )
    child = await stack.enqueue("xp:child", entity="user:9", depends_on=parent)
    others = [await stack.enqueue(f"xp:other-{n}", entity=f"user:{n}") for n in range(3)]
    stack.start_worker()

    for job in others:
        await stack.until_status(job, "succeeded")
    await stack.until_status(poison, "failed")
    await stack.until_status(parent, "failed")
    await stack.until_status(child, "failed")
    assert (await stack.job(poison))["error_code"] == "MalformedPayload"
    assert (await stack.job(parent))["error_code"] == "EffectFailed"
    assert (await stack.job(child))["error_code"] == "DependencyFailed"


async def test_q17_exhausted_retries_hold_with_generation_summary_and_budget(stack: Stack) -> None:
    stack.recorder.command("*:announce", "fail")
    stack.start_worker()
    job = await stack.enqueue("xp:q17")
    await stack.until_status(job, "failed")
    row = await stack.job(job)
    assert row["queue_status"] == "failed"
    assert row["handler_failures"] == 4  # three scheduled retries, then held
    assert row["retry_generation"] == 0
    assert row["error_code"] == "EffectFailed" and "announce failed" in row["error_msg"]
    assert row["held_at"] is not None
    assert await stack.value("SELECT count(*) FROM jobs") == 1
    assert await stack.tally(job) == 1  # the receipt kept the mutation to one across retries
