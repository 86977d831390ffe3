"""queue_fail and queue_retry: a failure is retried on its schedule, a stale owner's failure is
lost, and a deferral costs no budget."""

from datetime import timedelta
from uuid import uuid4

import pytest

from tests.support.queue_helpers import claim_next, enqueue_xp
from tests.support.stale_claims import RECLAIMERS, stale_and_current
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

DELAYS = [timedelta(milliseconds=1), timedelta(milliseconds=2), timedelta(milliseconds=3)]
ERROR = '{"exception_type": "Boom", "exception_message": "handler failed"}'


@RECLAIMERS
async def test_q08_stale_owner_failure_is_reported_lost_and_charges_nothing(
    connect: Connect, reclaimer: str
) -> None:
    conn = await connect()
    stale, _ = await stale_and_current(conn, reclaimer)
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
