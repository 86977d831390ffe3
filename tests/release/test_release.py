"""queue_release: a claim given back returns to the queue and wakes the listeners."""

import asyncio
from uuid import uuid4

import pytest

from tests.support.queue_helpers import claim_next, enqueue_xp
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


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
