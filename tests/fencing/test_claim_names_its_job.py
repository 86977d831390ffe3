"""A claim authorises only its own job's effects. A worker that claims a batch holds several
claims with the same manager and the same claim time, told apart only by their queue job id:
an effect of job A presented with job B's claim is refused (GJ409) and writes nothing."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_api.queue.enqueue import enqueue_job
from genji_devstack.payload_samples import SAMPLES
from genji_queue.bindings import effect_binding_begin, effect_binding_release, effect_binding_settle
from genji_queue.claim import queue_claim
from genji_queue.errors import StaleClaimError
from genji_queue.receipts import effect_receipt_begin, effect_receipt_complete
from genji_sdk import ClaimToken

from tests.support.queue_helpers import XP_EVENT, enqueue_xp
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

OTHER_EVENT = "api.newsfeed.create"
SEND = ("message:xp", "channel:5")


async def _two_jobs_claimed_in_one_batch(
    conn: asyncpg.Connection,
) -> tuple[tuple[UUID, ClaimToken], tuple[UUID, ClaimToken]]:
    """Jobs A and B of different entrypoints, claimed by one manager in one queue_claim call."""
    job_a = (await enqueue_xp(conn, "xp:a")).id
    async with conn.transaction():
        job_b = (
            await enqueue_job(
                conn,
                event_name=OTHER_EVENT,
                payload=SAMPLES[OTHER_EVENT],
                event_key="news:b",
                entity_key=None,
            )
        ).id
    manager = uuid4()
    claimed = (
        await queue_claim(conn, manager, [XP_EVENT, OTHER_EVENT], 2, 2, timedelta(milliseconds=200))
    ).jobs
    tokens = {
        c.row["entrypoint"]: ClaimToken(c.row["id"], manager, c.row["updated"]) for c in claimed
    }
    claim_a, claim_b = tokens[XP_EVENT], tokens[OTHER_EVENT]
    # What makes the mix-up possible: only the queue job id tells the two claims apart.
    assert claim_a.claimed_at == claim_b.claimed_at
    assert claim_a.queue_job_id != claim_b.queue_job_id
    return (job_a, claim_a), (job_b, claim_b)


async def _written(conn: asyncpg.Connection, job_id: UUID) -> tuple[int, int]:
    receipts = await conn.fetchval("SELECT count(*) FROM effect_receipts WHERE job_id = $1", job_id)
    bindings = await conn.fetchval("SELECT count(*) FROM effect_bindings WHERE job_id = $1", job_id)
    return receipts, bindings


async def test_an_effect_presented_with_another_claimed_jobs_claim_is_refused(
    connect: Connect,
) -> None:
    conn = await connect()
    (job_a, claim_a), (_, claim_b) = await _two_jobs_claimed_in_one_batch(conn)

    effect = conn.transaction()
    await effect.start()
    try:
        with pytest.raises(StaleClaimError):
            await effect_receipt_begin(conn, claim_b, job_a, "xp", "user:1:+5")
    finally:
        await effect.rollback()
    with pytest.raises(StaleClaimError):
        await effect_binding_begin(conn, claim_b, job_a, *SEND, "fingerprint-1")
    with pytest.raises(StaleClaimError):
        await effect_binding_settle(conn, claim_b, job_a, *SEND, "skipped")
    assert await _written(conn, job_a) == (0, 0)

    async with conn.transaction():
        receipt = await effect_receipt_begin(conn, claim_a, job_a, "xp", "user:1:+5")
        assert receipt.fresh
        await effect_receipt_complete(conn, job_a, "xp", {"total": 5})
    fresh, binding = await effect_binding_begin(conn, claim_a, job_a, *SEND, "fingerprint-1")
    assert (fresh, binding.state) == (True, "intended")
    assert await _written(conn, job_a) == (1, 1)

    # The intent is job A's own: job B's claim may not forget it either.
    with pytest.raises(StaleClaimError):
        await effect_binding_release(conn, claim_b, job_a, *SEND)
    assert await effect_binding_release(conn, claim_a, job_a, *SEND) is True
    assert await _written(conn, job_a) == (1, 0)
