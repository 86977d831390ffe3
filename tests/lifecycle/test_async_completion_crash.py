"""A completion is committed asynchronously: a crash that loses it must cause a replay that
repeats no effect, on a durable cluster (fsync and synchronous_commit on); a worker that outlives
the crash completes it again at once instead of leaving its entrypoint blocked."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.support.harness import (
    Stack,
    active_claim,
    log_rows,
    manager_of,
    recorded_claims,
)

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]


def _walwriter_pid(stack: Stack) -> int:
    postmaster = stack.cluster.postmaster_pid()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if parent == postmaster and b"walwriter" in command:
            return int(stat.parent.name)
    raise AssertionError("the cluster has no WAL writer process")


async def _stop_writing_wal_but_for_synchronous_commits(stack: Stack) -> None:
    """Nothing but a synchronous commit may write WAL out from here on: no WAL writer
    (stopped, then killed with the cluster), no autovacuum."""
    await stack.admin_sql("ALTER SYSTEM SET autovacuum = off")
    await stack.admin_sql("SELECT pg_reload_conf()")
    os.kill(_walwriter_pid(stack), signal.SIGSTOP)


async def test_a_completion_lost_unflushed_in_a_crash_is_replayed_without_repeating_its_effect(
    stack: Stack,
) -> None:
    await _stop_writing_wal_but_for_synchronous_commits(stack)
    job = await stack.enqueue("xp:unflushed-completion")

    # The worker dies right after its completion statement returned, so it commits nothing
    # more that would carry the completion's WAL out with it.
    first = stack.start_worker(GENJI_FAULT_POINT="after-complete")
    assert first.wait() == -signal.SIGKILL
    assert await stack.status(job) == "succeeded"  # committed and visible, not yet written
    assert await stack.tally(job) == 1

    stack.cluster.kill9()
    stack.cluster.start()

    # The completion was lost; the effect's receipt, committed synchronously before it, was not.
    assert (await active_claim(stack, job)).status == "picked"
    assert await log_rows(stack, job, "successful") == []
    assert await stack.status(job) != "succeeded"
    assert await stack.tally(job) == 1

    second = stack.start_worker()
    await stack.until_status(job, "succeeded")
    assert [len(recorded_claims(stack, job, pid)) for pid in (first.pid, second.pid)] == [1, 1]
    assert stack.recorder.count("after", "done", pid=second.pid) == 1
    assert await stack.tally(job) == 1
    assert len(await log_rows(stack, job, "successful")) == 1
    assert (await stack.job(job))["handler_failures"] == 0


async def test_q07_a_surviving_worker_completes_again_what_a_database_crash_lost(
    stack: Stack,
) -> None:
    # A stale threshold far beyond every deadline below: nothing here may wait for it. The
    # worker beats (a synchronous commit) every quarter of it, so none lands in the window
    # between the completion and the crash.
    await stack.sql("UPDATE queue_settings SET stale_heartbeat = interval '60 seconds'")
    worker = stack.start_worker()
    await manager_of(stack, worker)
    await _stop_writing_wal_but_for_synchronous_commits(stack)

    first = await stack.enqueue("xp:recompleted")
    await stack.until_status(first, "succeeded")  # committed and visible, not yet written
    stack.cluster.kill9()
    stack.cluster.start()

    # The entrypoint's next job runs once the lost completion is written again.
    second = await stack.enqueue("xp:after-the-crash")
    await stack.until_status(second, "succeeded", deadline=20)
    assert worker.process.poll() is None

    # The first job ran once, and its only completion is the one written after the restart:
    # the original was lost.
    assert await stack.status(first) == "succeeded"
    assert await stack.tally(first) == 1
    assert len(recorded_claims(stack, first)) == 1
    assert stack.recorder.count("after", "done", pid=worker.pid) == 2
    [completed] = await log_rows(stack, first, "successful")
    assert completed > await stack.value("SELECT pg_postmaster_start_time()")
    assert (await stack.job(first))["handler_failures"] == 0


async def test_a_claim_made_with_a_completion_is_committed_synchronously(stack: Stack) -> None:
    await _stop_writing_wal_but_for_synchronous_commits(stack)
    first = await stack.enqueue("xp:completed-then-claimed:1")
    second = await stack.enqueue("xp:completed-then-claimed:2")

    # The worker dies right after the call that completed the first job and claimed the second
    # (queue_complete_and_claim): no later commit of its own carries that call's WAL out.
    worker = stack.start_worker(GENJI_FAULT_POINT="after-complete")
    assert worker.wait() == -signal.SIGKILL
    assert (await active_claim(stack, second)).status == "picked"

    stack.cluster.kill9()
    stack.cluster.start()

    # A claim is never committed asynchronously: the second job's claim, and the completion
    # written with it, survived the crash.
    assert (await active_claim(stack, second)).status == "picked"
    assert len(await log_rows(stack, second, "picked")) == 1
    assert len(await log_rows(stack, first, "successful")) == 1
    assert await stack.status(first) == "succeeded"
