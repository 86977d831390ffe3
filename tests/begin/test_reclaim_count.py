"""queue_begin counts the claims since a job last went back to the queue. A new job has no
'queued' log row (enqueue writes none), so its count starts at its first claim; a retry writes
one, and the count starts again there."""

import asyncpg
import pytest

from tests.support.queue_helpers import claimed_ungated, enqueue_xp, gate_decision
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


async def _claim_and_die(conn: asyncpg.Connection) -> None:
    """An owner claims the job and dies mid-run: its heartbeat goes stale."""
    await claimed_ungated(conn)
    await conn.execute("UPDATE pgqueuer SET heartbeat = now() - interval '5 minutes'")


async def _log(conn: asyncpg.Connection) -> list[str]:
    rows = await conn.fetch("SELECT status::text FROM pgqueuer_log ORDER BY id")
    return [r["status"] for r in rows]


async def test_a_retried_job_counts_its_reclaims_from_the_retry_not_from_enqueue(
    connect: Connect,
) -> None:
    conn = await connect()
    await enqueue_xp(conn, "xp:1")
    await conn.execute("UPDATE queue_settings SET max_reclaims = 2")

    # Two owners die; the third claim is the second reclaim, within the limit.
    await _claim_and_die(conn)
    await _claim_and_die(conn)
    third = await claimed_ungated(conn)
    assert await gate_decision(conn, third) == "run"
    # Its handler fails: the retry puts the job back in the queue with a 'queued' row.
    assert await conn.fetchval(
        "SELECT queue_retry($1, $2, $3, interval '0 seconds')",
        third.id,
        third.queue_manager_id,
        third.updated,
    )
    assert await _log(conn) == ["picked", "picked", "picked", "queued"]

    # One more owner dies after the retry: one reclaim since the retry, not four since enqueue.
    await conn.execute("UPDATE pgqueuer SET execute_after = now()")
    await _claim_and_die(conn)
    assert await gate_decision(conn, await claimed_ungated(conn)) == "run"
    held = await conn.fetchval("SELECT count(*) FROM jobs WHERE error_code = 'WorkerLost'")
    assert held == 0
