"""Fenced state writes: a stale owner changes nothing and is told so."""

import asyncio
from datetime import timedelta
from uuid import uuid4

import asyncpg
import pytest
from genji_queue.errors import StaleClaimError
from genji_queue.receipts import effect_receipt_begin, effect_receipt_complete
from genji_sdk import ClaimToken
from pgqueuer.models import Job

from tests.support.queue_helpers import claim_next, enqueue_xp
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

DELAYS = [timedelta(milliseconds=1), timedelta(milliseconds=2), timedelta(milliseconds=3)]
ERROR = '{"exception_type": "Boom", "exception_message": "handler failed"}'


# A claim is lost to a stale-heartbeat reclaim by another worker, or by the same queue manager
# (same manager id, new claim time): both must fence out the earlier token.
RECLAIMERS = pytest.mark.parametrize(
    "reclaimer", ["other", "same"], ids=["q08-other-manager", "q08-same-manager"]
)


async def _stale_and_current(conn: asyncpg.Connection, reclaimer: str = "other") -> tuple[Job, Job]:
    """A job claimed once, then reclaimed after its heartbeat lapsed."""
    await enqueue_xp(conn, "xp:1")
    manager = uuid4()
    stale = await claim_next(conn, manager)
    assert stale is not None
    await conn.execute("UPDATE pgqueuer SET heartbeat = now() - interval '2 minutes'")
    current = await claim_next(conn, manager if reclaimer == "same" else uuid4())
    assert current is not None and current.id == stale.id
    assert (current.queue_manager_id == stale.queue_manager_id) == (reclaimer == "same")
    assert current.updated != stale.updated
    return stale, current


def _token(job: Job) -> ClaimToken:
    assert job.queue_manager_id is not None
    return ClaimToken(job.id, job.queue_manager_id, job.updated)


async def _log_statuses(conn: asyncpg.Connection) -> list[str]:
    return [
        r["status"] for r in await conn.fetch("SELECT status::text FROM pgqueuer_log ORDER BY id")
    ]


# Each write, as a query that is true when the write took effect for the given claim.
WRITES = {
    "complete": "SELECT queue_complete($1, $2, $3)",
    "release": "SELECT queue_release($1, $2, $3)",
    "retry": "SELECT queue_retry($1, $2, $3, interval '1 second')",
    "hold": f"SELECT queue_hold($1, $2, $3, '{ERROR}')",
    "fail": f"SELECT queue_fail($1, $2, $3, ARRAY[interval '1 second'], '{ERROR}') <> 'lost'",
    "begin": "SELECT decision <> 'lost' FROM queue_begin($1, $2, $3, interval '1 second')",
    "heartbeat": "SELECT count(*) = 0 FROM queue_heartbeat("
    "ARRAY[$1]::bigint[], ARRAY[$2]::uuid[], ARRAY[$3]::timestamptz[])",
}


@RECLAIMERS
@pytest.mark.parametrize("write", list(WRITES))
async def test_q08_stale_owner_write_changes_nothing(
    connect: Connect, write: str, reclaimer: str
) -> None:
    conn = await connect()
    stale, current = await _stale_and_current(conn, reclaimer)
    before = await conn.fetchrow("SELECT * FROM pgqueuer")
    job_before = await conn.fetchrow("SELECT * FROM jobs")
    logs_before = await _log_statuses(conn)

    assert (
        await conn.fetchval(WRITES[write], stale.id, stale.queue_manager_id, stale.updated) is False
    )

    assert await conn.fetchrow("SELECT * FROM pgqueuer") == before
    assert await conn.fetchrow("SELECT * FROM jobs") == job_before
    assert await _log_statuses(conn) == logs_before
    assert await conn.fetchval(WRITES[write], current.id, current.queue_manager_id, current.updated)
    if write in ("begin", "heartbeat"):  # the claim is still held: it can complete
        assert await conn.fetchval(
            WRITES["complete"], current.id, current.queue_manager_id, current.updated
        )
        assert (await _log_statuses(conn))[-1] == "successful"


@RECLAIMERS
async def test_q08_stale_owner_cannot_begin_an_effect(connect: Connect, reclaimer: str) -> None:
    conn = await connect()
    stale, current = await _stale_and_current(conn, reclaimer)
    job_id = await conn.fetchval("SELECT id FROM jobs")
    with pytest.raises(StaleClaimError):
        async with conn.transaction():
            await effect_receipt_begin(conn, _token(stale), job_id, "xp", "user:1:+5")
    assert await conn.fetchval("SELECT count(*) FROM effect_receipts") == 0

    async with conn.transaction():
        receipt = await effect_receipt_begin(conn, _token(current), job_id, "xp", "user:1:+5")
        assert receipt.fresh
        await effect_receipt_complete(conn, job_id, "xp", {"total": 5})
    assert await conn.fetchval("SELECT count(*) FROM effect_receipts") == 1


@RECLAIMERS
async def test_q08_stale_owner_failure_is_reported_lost_and_charges_nothing(
    connect: Connect, reclaimer: str
) -> None:
    conn = await connect()
    stale, _ = await _stale_and_current(conn, reclaimer)
    assert (
        await conn.fetchval(
            f"SELECT queue_fail($1, $2, $3, $4, '{ERROR}')",
            stale.id,
            stale.queue_manager_id,
            stale.updated,
            DELAYS,
        )
        == "lost"
    )
    assert await conn.fetchval("SELECT handler_failures FROM jobs") == 0


@RECLAIMERS
async def test_q08_heartbeat_returns_the_claims_that_were_lost(
    connect: Connect, reclaimer: str
) -> None:
    conn = await connect()
    stale, current = await _stale_and_current(conn, reclaimer)
    lost = await conn.fetch(
        "SELECT * FROM queue_heartbeat($1, $2, $3)",
        [stale.id, current.id],
        [stale.queue_manager_id, current.queue_manager_id],
        [stale.updated, current.updated],
    )
    assert [r[0] for r in lost] == [stale.id]
    assert await conn.fetchval("SELECT heartbeat > now() - interval '1 second' FROM pgqueuer")


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


async def test_a_deferral_does_not_consume_the_failure_budget(connect: Connect) -> None:
    conn = await connect()
    await enqueue_xp(conn, "xp:1")
    for _ in range(5):
        claimed = None
        while claimed is None:
            claimed = await claim_next(conn, uuid4())
        assert await conn.fetchval(
            "SELECT queue_retry($1, $2, $3, interval '0', '{\"exception_type\": \"DatabaseUnavailable\"}', false)",
            claimed.id,
            claimed.queue_manager_id,
            claimed.updated,
        )
    row = await conn.fetchrow(
        "SELECT j.handler_failures, q.attempts FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id"
    )
    assert row is not None and (row["handler_failures"], row["attempts"]) == (0, 5)


async def test_release_returns_work_to_the_queue_and_wakes_listeners(connect: Connect) -> None:
    conn, listener = await connect(), await connect()
    await enqueue_xp(conn, "xp:1")
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None
    woke = asyncio.Event()
    await listener.add_listener("ch_pgqueuer", lambda *_: woke.set())
    assert await conn.fetchval(
        "SELECT queue_release($1, $2, $3, 'shutdown')",
        claimed.id,
        claimed.queue_manager_id,
        claimed.updated,
    )
    await asyncio.wait_for(woke.wait(), timeout=5)
    row = await conn.fetchrow("SELECT status::text, queue_manager_id, attempts FROM pgqueuer")
    assert row is not None and tuple(row) == ("queued", None, 0)
