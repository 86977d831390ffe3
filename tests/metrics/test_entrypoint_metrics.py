"""Queue depth per registered entrypoint: every state, the oldest ready age, idle ones as zeros."""

from datetime import timedelta
from uuid import uuid4

import asyncpg
import pytest
from genji_queue.metrics import queue_entrypoint_metrics
from genji_sdk import REGISTRY
from queue_helpers import XP_EVENT, claim_next, enqueue_xp
from testdb import Connect

pytestmark = pytest.mark.queue


async def test_entrypoint_metrics_count_each_state_per_entrypoint(connect: Connect) -> None:
    conn = await connect()
    for n in range(5):
        await enqueue_xp(conn, f"xp:{n}", grant_id=n, user_id=n + 1)  # one entity each
    held = await claim_next(conn, uuid4())
    assert held is not None
    await conn.execute(
        "SELECT queue_hold($1, $2, $3, '{}')", held.id, held.queue_manager_id, held.updated
    )
    assert await claim_next(conn, uuid4()) is not None  # one running (one per entrypoint)
    await conn.execute("UPDATE pgqueuer SET execute_after = now() + interval '1 hour' WHERE id = 5")
    await conn.execute(
        "UPDATE pgqueuer SET execute_after = now() - interval '90 seconds' WHERE id = 3"
    )

    rows = {row.entrypoint: row for row in await queue_entrypoint_metrics(conn)}
    assert set(rows) == {spec.name for spec in REGISTRY}
    xp = rows.pop(XP_EVENT)
    assert (xp.owner, xp.ready, xp.delayed, xp.running, xp.held) == ("bot", 2, 1, 1, 1)
    assert xp.oldest_ready_age is not None
    assert timedelta(seconds=90) <= xp.oldest_ready_age < timedelta(seconds=120)
    for idle in rows.values():
        assert (idle.ready, idle.delayed, idle.running, idle.held) == (0, 0, 0, 0), idle
        assert idle.oldest_ready_age is None
        assert idle.owner == REGISTRY.get(idle.entrypoint).owner


async def test_worker_login_may_not_read_entrypoint_metrics(connect: Connect) -> None:
    worker = await connect("worker")
    with pytest.raises(asyncpg.InsufficientPrivilegeError):
        await worker.fetch("SELECT * FROM queue_entrypoint_metrics()")
