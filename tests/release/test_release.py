"""queue_release: a claim given back returns to the queue and wakes the listeners; a stopped
manager's claims are given back with its liveness row (queue_worker_stopped)."""

import asyncio
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim
from genji_queue.workers import queue_worker_stopped

from tests.support.harness import eventually
from tests.support.queue_helpers import (
    GATE_WAIT,
    XP_EVENT,
    claim_next,
    enqueue_sample,
    enqueue_xp,
    register_worker,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

OTHER = "api.newsfeed.create"


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


async def test_a_stopped_managers_remaining_claims_go_back_once_its_session_ended(
    connect: Connect,
) -> None:
    owner, old, new = await connect(), await connect("worker"), await connect("worker")
    manager = await register_worker(old, uuid4())
    for n in range(2):
        await enqueue_xp(owner, f"xp:stopped:{n}", grant_id=n + 1, user_id=n + 1)
    await enqueue_sample(owner, OTHER, "news:stopped")
    claimed = (await queue_claim(old, manager, [XP_EVENT, OTHER], 2, None, GATE_WAIT)).jobs
    assert len(claimed) == 2

    # While the session that registered the manager lives, no other session gives its claims
    # back; once it has ended, a reconnected worker gives back every claim it still held.
    assert not await queue_worker_stopped(new, manager)
    assert await owner.fetchval(
        "SELECT count(*) FROM pgqueuer WHERE status = 'picked' AND queue_manager_id = $1", manager
    ) == len(claimed)
    old_pid = await owner.fetchval(
        "SELECT backend_pid FROM queue_workers WHERE manager_id = $1", manager
    )
    await old.close()

    async def gone() -> bool:
        return not await owner.fetchval("SELECT queue_session_alive($1)", old_pid)

    await eventually(gone, deadline=5, what="the old session to end")
    assert await queue_worker_stopped(new, manager)

    rows = await owner.fetch("SELECT status::text, queue_manager_id FROM pgqueuer")
    assert sorted((r["status"], r["queue_manager_id"]) for r in rows) == [("queued", None)] * 3
    reasons = await owner.fetch(
        "SELECT job_id, traceback->>'exception_message' AS reason FROM pgqueuer_log"
        " WHERE status = 'queued' ORDER BY job_id"
    )
    assert [(r["job_id"], r["reason"]) for r in reasons] == [
        (c.row["id"], "its worker stopped") for c in sorted(claimed, key=lambda c: c.row["id"])
    ]
    assert await owner.fetchval("SELECT count(*) FROM queue_workers") == 0
