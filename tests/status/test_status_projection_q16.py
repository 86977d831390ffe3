"""Q16: the public status contract over every durable queue state, legacy rows included."""

from datetime import timedelta
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_queue.errors import JobNotFoundError, JobStateInconsistentError
from genji_queue.recovery_discard import recovery_discard
from genji_queue.recovery_retry import recovery_retry
from genji_queue.status import job_public_status
from genji_sdk.recovery import DiscardRequest, OperatorContext, RetryRequest

from tests.support.queue_helpers import claim_next, enqueue_xp
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

DELAYS = [timedelta(seconds=5), timedelta(seconds=15)]


async def _held(conn: asyncpg.Connection) -> UUID:
    job = await enqueue_xp(conn, "xp:held")
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None
    await conn.execute(
        "SELECT queue_hold($1, $2, $3, $4::jsonb, true)",
        claimed.id,
        claimed.queue_manager_id,
        claimed.updated,
        '{"exception_type": "ValueError", "exception_message": "bad input"}',
    )
    return job.id


def _operator(kind: Any, **extra: Any) -> Any:
    return kind(
        expected_generation=0,
        idempotency_key="operator-1",
        actor_id=1_098_765_432_109_876_543,
        context=OperatorContext(source="cli"),
        **extra,
    )


async def test_q16_ready_job_is_queued(connect: Connect) -> None:
    conn = await connect()
    job = await enqueue_xp(conn, "xp:1")
    assert (await job_public_status(conn, job.id)).status == "queued"


async def test_q16_delayed_retry_is_queued_not_failed(connect: Connect) -> None:
    conn = await connect()
    job = await enqueue_xp(conn, "xp:1")
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None
    outcome = await conn.fetchval(
        'SELECT queue_fail($1, $2, $3, $4, \'{"exception_type": "Boom"}\')',
        claimed.id,
        claimed.queue_manager_id,
        claimed.updated,
        DELAYS,
    )
    assert outcome == "retry"
    status = await job_public_status(conn, job.id)
    assert (status.status, status.error_code) == ("queued", None)


async def test_q16_claimed_job_is_processing(connect: Connect) -> None:
    conn = await connect()
    job = await enqueue_xp(conn, "xp:1")
    assert await claim_next(conn, uuid4()) is not None
    assert (await job_public_status(conn, job.id)).status == "processing"


async def test_q16_job_awaiting_stale_recovery_is_processing(connect: Connect) -> None:
    conn = await connect()
    job = await enqueue_xp(conn, "xp:1")
    assert await claim_next(conn, uuid4()) is not None
    await conn.execute("UPDATE pgqueuer SET heartbeat = now() - interval '10 minutes'")
    assert (await job_public_status(conn, job.id)).status == "processing"


async def test_q16_completed_job_is_succeeded(connect: Connect) -> None:
    conn = await connect()
    job = await enqueue_xp(conn, "xp:1")
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None
    assert await conn.fetchval(
        "SELECT queue_complete($1, $2, $3)", claimed.id, claimed.queue_manager_id, claimed.updated
    )
    assert (await job_public_status(conn, job.id)).status == "succeeded"


async def test_q16_held_job_is_failed_with_its_error_summary(connect: Connect) -> None:
    conn = await connect()
    job_id = await _held(conn)
    status = await job_public_status(conn, job_id)
    assert (status.status, status.error_code, status.error_msg) == (
        "failed",
        "ValueError",
        "bad input",
    )


async def test_q16_requeued_held_job_reports_its_active_row_over_old_failure_logs(
    connect: Connect,
) -> None:
    conn = await connect()
    job_id = await _held(conn)
    result = await recovery_retry(conn, job_id, _operator(RetryRequest))
    assert result.outcome == "accepted"
    assert (await job_public_status(conn, job_id)).status == "queued"


async def test_q16_discarded_job_is_failed(connect: Connect) -> None:
    conn = await connect()
    job_id = await _held(conn)
    result = await recovery_discard(conn, job_id, _operator(DiscardRequest, reason="wrong map"))
    assert result.outcome == "accepted"
    status = await job_public_status(conn, job_id)
    assert (status.status, status.error_code) == ("failed", "Discarded")
    assert status.error_msg is not None and "wrong map" in status.error_msg


@pytest.mark.parametrize("recorded", ["queued", "processing", "succeeded", "failed", "timeout"])
async def test_q16_legacy_rows_keep_their_recorded_status(connect: Connect, recorded: str) -> None:
    conn = await connect()
    job_id = uuid4()
    await conn.execute(
        "INSERT INTO jobs (id, action, status, error_code) VALUES ($1, 'api.xp.grant', $2, 'E')",
        job_id,
        recorded,
    )
    assert (await job_public_status(conn, job_id)).status == recorded


async def test_q16_missing_queue_metadata_raises_instead_of_reporting_success(
    connect: Connect,
) -> None:
    conn = await connect()
    job = await enqueue_xp(conn, "xp:1")
    await conn.execute("DELETE FROM pgqueuer; DELETE FROM pgqueuer_log")
    with pytest.raises(JobStateInconsistentError):
        await job_public_status(conn, job.id)


async def test_q16_unknown_job_is_not_found(connect: Connect) -> None:
    conn = await connect()
    with pytest.raises(JobNotFoundError):
        await job_public_status(conn, uuid4())
