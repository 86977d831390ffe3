"""recovery_retry: an audited requeue of the same held job under its next generation."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.begin import queue_begin
from genji_queue.errors import InvalidJobRequestError, JobNotFoundError, RecoveryKeyConflictError
from genji_queue.recovery_retry import recovery_retry
from genji_sdk.recovery import RetryRequest

from tests.support.harness import eventually
from tests.support.held_jobs import OPERATOR, SEND, claim, held_job, job_row, retry_request
from tests.support.lock_waits import calls_waiting_on_locks
from tests.support.queue_helpers import enqueue_xp, queue_row
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(milliseconds=200)


async def test_a_retry_requeues_the_same_job_with_a_fresh_budget_and_its_effects_kept(
    connect: Connect,
) -> None:
    conn = await connect()
    job_id = await held_job(conn)
    held, held_row = await job_row(conn, job_id), await queue_row(conn, job_id)
    assert held_row is not None and held_row["status"] == "failed"

    result = await recovery_retry(conn, job_id, retry_request())
    assert (result.outcome, result.retry_generation, result.state) == ("accepted", 1, "pending")

    job, row = await job_row(conn, job_id), await queue_row(conn, job_id)
    assert row is not None
    assert (row["id"], row["payload"], row["dedupe_key"]) == (
        held_row["id"],
        held_row["payload"],
        held_row["dedupe_key"],
    )
    assert (row["status"], row["attempts"], row["queue_manager_id"]) == ("queued", 0, None)
    assert (job["event_key"], job["payload_hash"], job["retry_generation"]) == (
        held["event_key"],
        held["payload_hash"],
        1,
    )
    assert (job["handler_failures"], job["held_at"]) == (0, None)
    assert await conn.fetchval("SELECT count(*) FROM jobs") == 1  # no new logical job
    receipt = await conn.fetchrow("SELECT * FROM effect_receipts WHERE job_id = $1", job_id)
    assert receipt["completed_at"] is not None and json.loads(receipt["result"]) == {"total": 5}
    binding = await conn.fetchrow("SELECT * FROM effect_bindings WHERE job_id = $1", job_id)
    assert (binding["effect_key"], binding["destination"], binding["state"]) == (*SEND, "completed")

    audit = await conn.fetch("SELECT * FROM job_actions WHERE job_id = $1", job_id)
    assert [
        (a["action"], a["actor_id"], a["expected_generation"], a["outcome"]) for a in audit
    ] == [("retry", OPERATOR, 0, "accepted")]
    detail = json.loads(audit[0]["detail"])
    assert (detail["generation"], detail["held_error_code"], detail["handler_failures"]) == (
        1,
        "ApiError",
        1,
    )
    logged = await conn.fetchval(
        "SELECT traceback ->> 'exception_type' FROM pgqueuer_log WHERE job_id = $1 "
        "ORDER BY id DESC LIMIT 1",
        row["id"],
    )
    assert logged == "OperatorRetry"

    token = await claim(conn)
    begun = await queue_begin(conn, token, WAIT)
    assert (begun.decision, begun.retry_generation, begun.handler_failures) == ("run", 1, 0)


async def test_a_repeated_key_returns_the_recorded_retry_and_later_requests_change_nothing(
    connect: Connect,
) -> None:
    conn = await connect()
    job_id = await held_job(conn)
    first = await recovery_retry(conn, job_id, retry_request("click-1"))
    again = await recovery_retry(conn, job_id, retry_request("click-1"))
    assert (again.outcome, again.recorded_outcome, again.action_id) == (
        "duplicate",
        "accepted",
        first.action_id,
    )
    old_generation = await recovery_retry(conn, job_id, retry_request("click-2", 0))
    assert old_generation.outcome == "stale_generation"
    while_queued = await recovery_retry(conn, job_id, retry_request("click-3", 1))
    assert (while_queued.outcome, while_queued.state) == ("queued", "pending")
    await claim(conn)
    while_running = await recovery_retry(conn, job_id, retry_request("click-4", 1))
    assert (while_running.outcome, while_running.state) == ("running", "running")
    assert (await job_row(conn, job_id))["retry_generation"] == 1
    assert await conn.fetchval("SELECT count(*) FROM job_actions") == 1


async def test_concurrent_retries_with_different_keys_requeue_once(connect: Connect) -> None:
    first, second, observer = await connect(), await connect(), await connect()
    job_id = await held_job(first)
    transaction = first.transaction()
    await transaction.start()
    accepted = await recovery_retry(first, job_id, retry_request("click-1"))
    assert accepted.outcome == "accepted"

    racing = asyncio.create_task(recovery_retry(second, job_id, retry_request("click-2")))

    async def second_waits_or_returns() -> bool:
        return racing.done() or await calls_waiting_on_locks(observer, "recovery_retry") > 0

    # The second request waits on the job row lock the first one holds (seen from a session
    # outside both transactions: tests/support/lock_waits.py).
    await eventually(second_waits_or_returns, 20, "the second retry to wait on the job row")
    waiting = await calls_waiting_on_locks(observer, "recovery_retry")
    assert waiting == 1 and not racing.done()
    await transaction.commit()
    lost = await racing
    assert (lost.outcome, lost.retry_generation) == ("stale_generation", 1)
    assert await first.fetchval("SELECT count(*) FROM job_actions") == 1


async def test_one_key_used_on_two_jobs_at_once_is_a_key_conflict_for_the_later(
    connect: Connect,
) -> None:
    first, second, observer = await connect(), await connect(), await connect()
    job_id = await held_job(first)
    other = await held_job(first, "xp:other", user_id=8, effects=False)
    transaction = first.transaction()
    await transaction.start()
    assert (await recovery_retry(first, job_id, retry_request("shared-key"))).outcome == "accepted"

    racing = asyncio.create_task(recovery_retry(second, other, retry_request("shared-key")))

    async def second_waits_or_returns() -> bool:
        return racing.done() or await calls_waiting_on_locks(observer, "recovery_retry") > 0

    # Each locked its own job: the second waits on the key's index entry, not on the first job.
    await eventually(second_waits_or_returns, 20, "the second retry to wait on the key")
    assert not racing.done()
    await transaction.commit()
    with pytest.raises(RecoveryKeyConflictError, match="shared-key"):
        await racing
    assert (await job_row(first, other))["retry_generation"] == 0


async def test_a_succeeded_or_discarded_job_is_reported_and_left_alone(connect: Connect) -> None:
    conn = await connect()
    job_id = (await enqueue_xp(conn, "xp:done")).id
    token = await claim(conn)
    assert await conn.fetchval(
        "SELECT queue_complete($1, $2, $3)",
        token.queue_job_id,
        token.queue_manager_id,
        token.claimed_at,
    )
    done = await recovery_retry(conn, job_id, retry_request())
    assert (done.outcome, done.state) == ("succeeded", "succeeded")
    # After log pruning the summary still says how it ended.
    await conn.execute("UPDATE pgqueuer_log SET created = now() - interval '40 days'")
    assert await conn.fetchval("SELECT queue_prune_logs()") == 1
    assert (await recovery_retry(conn, job_id, retry_request("k2"))).outcome == "succeeded"
    assert await conn.fetchval("SELECT count(*) FROM job_actions") == 0


async def test_bad_requests_are_refused_before_anything_is_read(connect: Connect) -> None:
    conn = await connect()
    job_id = await held_job(conn)
    other = await held_job(conn, "xp:other", user_id=8, effects=False)
    await recovery_retry(conn, job_id, retry_request("shared-key"))
    with pytest.raises(RecoveryKeyConflictError, match="shared-key"):
        await recovery_retry(conn, other, retry_request("shared-key"))
    with pytest.raises(JobNotFoundError):
        await recovery_retry(conn, uuid4(), retry_request("k"))
    for bad in (retry_request(" "), retry_request("k", -1)):
        with pytest.raises(InvalidJobRequestError):
            await recovery_retry(conn, other, bad)
    nobody = RetryRequest(
        expected_generation=0, idempotency_key="k", actor_id=0, context=retry_request().context
    )
    with pytest.raises(InvalidJobRequestError, match="operator"):
        await recovery_retry(conn, other, nobody)
    row = await queue_row(conn, other)
    assert row is not None and row["status"] == "failed"


async def test_the_worker_role_cannot_call_recovery(connect: Connect) -> None:
    owner, worker = await connect(), await connect("worker")
    job_id = await held_job(owner)
    for call in (
        "SELECT * FROM recovery_retry($1, 0, 'k', 1)",
        "SELECT * FROM recovery_discard($1, 0, 'k', 1, 'why')",
        "SELECT * FROM recovery_resolve_effect($1, 'e', 'd', 'resend', NULL, NULL, NULL, 0, 'k', 1)",
    ):
        with pytest.raises(Exception, match="permission denied for function recovery_"):
            await worker.fetch(call, job_id)
    row = await queue_row(owner, job_id)
    assert row is not None and row["status"] == "failed"
