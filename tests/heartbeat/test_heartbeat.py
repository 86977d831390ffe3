"""queue_heartbeat: it renews the claims a worker still holds and returns the ones it lost."""

import pytest

from tests.support.stale_claims import RECLAIMERS, stale_and_current
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


@RECLAIMERS
async def test_q08_heartbeat_returns_the_claims_that_were_lost(
    connect: Connect, reclaimer: str
) -> None:
    conn = await connect()
    stale, current = await stale_and_current(conn, reclaimer)
    lost = await conn.fetch(
        "SELECT * FROM queue_heartbeat($1, $2, $3)",
        [stale.id, current.id],
        [stale.queue_manager_id, current.queue_manager_id],
        [stale.updated, current.updated],
    )
    assert [r[0] for r in lost] == [stale.id]
    assert await conn.fetchval("SELECT heartbeat > now() - interval '1 second' FROM pgqueuer")
