"""Fenced state writes: a stale owner changes nothing and is told so."""

import asyncpg
import pytest
from genji_queue.errors import StaleClaimError
from genji_queue.receipts import effect_receipt_begin, effect_receipt_complete
from genji_sdk import ClaimToken
from pgqueuer.models import Job

from tests.support.stale_claims import RECLAIMERS, stale_and_current
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

ERROR = '{"exception_type": "Boom", "exception_message": "handler failed"}'


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
    "complete_many": "SELECT (queue_complete_many("
    "ARRAY[$1]::bigint[], ARRAY[$2]::uuid[], ARRAY[$3]::timestamptz[]))[1]",
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
    stale, current = await stale_and_current(conn, reclaimer)
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
    stale, current = await stale_and_current(conn, reclaimer)
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
async def test_q08_a_grouped_completion_fences_each_claim(connect: Connect, reclaimer: str) -> None:
    conn = await connect()
    stale, current = await stale_and_current(conn, reclaimer)
    batch = [_token(stale), _token(current)]

    written = await conn.fetchval(
        "SELECT queue_complete_many($1, $2, $3)",
        [c.queue_job_id for c in batch],
        [c.queue_manager_id for c in batch],
        [c.claimed_at for c in batch],
    )

    assert written == [False, True]
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer") == 0
    assert (await _log_statuses(conn)).count("successful") == 1
    assert await conn.fetchval("SELECT finished_at IS NOT NULL FROM jobs")
