"""Effect receipts: one mutation per (job, effect), even with concurrent or stale callers."""

import asyncio
from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_queue.errors import EffectFingerprintMismatchError, StaleClaimError
from genji_queue.receipts import effect_receipt_begin, effect_receipt_complete
from genji_sdk import ClaimToken

from tests.support.queue_helpers import claim_next, enqueue_xp
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

LEDGER = "CREATE TABLE xp_totals (user_id int PRIMARY KEY, amount int NOT NULL)"


async def _claimed_job(conn: asyncpg.Connection) -> tuple[UUID, ClaimToken]:
    await conn.execute(LEDGER + "; INSERT INTO xp_totals VALUES (7, 0)")
    job = await enqueue_xp(conn, "xp:1", user_id=7)
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None and claimed.queue_manager_id is not None
    return job.id, ClaimToken(claimed.id, claimed.queue_manager_id, claimed.updated)


async def _grant_xp(
    conn: asyncpg.Connection,
    job_id: UUID,
    claim: ClaimToken,
    barrier: asyncio.Barrier | None = None,
):  # type: ignore[no-untyped-def]
    async with conn.transaction():
        if barrier is not None:
            await barrier.wait()
        receipt = await effect_receipt_begin(conn, claim, job_id, "xp", "user:7:+5")
        if not receipt.fresh:
            return receipt.result
        total = await conn.fetchval(
            "UPDATE xp_totals SET amount = amount + 5 WHERE user_id = 7 RETURNING amount"
        )
        await asyncio.sleep(0.05)  # hold the transaction open so the duplicate must wait
        result = {"total": total}
        await effect_receipt_complete(conn, job_id, "xp", result)
        return result


async def test_q08_concurrent_duplicate_effect_mutates_once_and_shares_the_result(
    connect: Connect,
) -> None:
    setup, a, b = await connect(), await connect(), await connect()
    job_id, claim = await _claimed_job(setup)
    barrier = asyncio.Barrier(2)
    results = await asyncio.gather(
        _grant_xp(a, job_id, claim, barrier), _grant_xp(b, job_id, claim, barrier)
    )
    assert results == [{"total": 5}, {"total": 5}]
    assert await setup.fetchval("SELECT amount FROM xp_totals") == 5
    assert await setup.fetchval("SELECT count(*) FROM effect_receipts") == 1


async def test_q05_q10_replay_after_commit_reuses_the_recorded_result(connect: Connect) -> None:
    conn = await connect()
    job_id, claim = await _claimed_job(conn)
    assert await _grant_xp(conn, job_id, claim) == {"total": 5}
    assert await _grant_xp(conn, job_id, claim) == {"total": 5}
    assert await conn.fetchval("SELECT amount FROM xp_totals") == 5


async def test_q01_q05_rollback_leaves_no_receipt_and_the_effect_can_run_again(
    connect: Connect,
) -> None:
    conn = await connect()
    job_id, claim = await _claimed_job(conn)
    with pytest.raises(RuntimeError):
        async with conn.transaction():
            await effect_receipt_begin(conn, claim, job_id, "xp", "user:7:+5")
            await conn.execute("UPDATE xp_totals SET amount = amount + 5")
            raise RuntimeError("crash before commit")
    assert await conn.fetchval("SELECT count(*) FROM effect_receipts") == 0
    assert await _grant_xp(conn, job_id, claim) == {"total": 5}


async def test_q08_stale_claim_cannot_start_a_new_effect_but_can_read_a_completed_one(
    connect: Connect,
) -> None:
    conn = await connect()
    job_id, claim = await _claimed_job(conn)
    await _grant_xp(conn, job_id, claim)
    await conn.execute("UPDATE pgqueuer SET heartbeat = now() - interval '2 minutes'")
    assert await claim_next(conn, uuid4()) is not None  # another worker takes over

    assert await _grant_xp(conn, job_id, claim) == {"total": 5}
    with pytest.raises(StaleClaimError):
        async with conn.transaction():
            await effect_receipt_begin(conn, claim, job_id, "announce", "dm:7")
    assert await conn.fetchval("SELECT amount FROM xp_totals") == 5


async def test_q10_a_different_fingerprint_for_the_same_effect_raises(connect: Connect) -> None:
    conn = await connect()
    job_id, claim = await _claimed_job(conn)
    await _grant_xp(conn, job_id, claim)
    with pytest.raises(EffectFingerprintMismatchError):
        async with conn.transaction():
            await effect_receipt_begin(conn, claim, job_id, "xp", "user:7:+500")


async def test_q05_a_receipt_begun_but_not_completed_cannot_commit(connect: Connect) -> None:
    conn = await connect()
    job_id, claim = await _claimed_job(conn)
    with pytest.raises(asyncpg.PostgresError, match="not completed before commit"):
        async with conn.transaction():
            await effect_receipt_begin(conn, claim, job_id, "xp", "user:7:+5")
    assert await conn.fetchval("SELECT count(*) FROM effect_receipts") == 0
