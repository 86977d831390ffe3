"""Queue depth per registered entrypoint: every state, the oldest ready age, idle ones as zeros."""

from datetime import timedelta

import asyncpg
import pytest
from genji_queue.metrics import queue_entrypoint_metrics
from genji_sdk import REGISTRY

from tests.support.queue_helpers import XP_EVENT
from tests.support.testdb import Connect

from .queue_states import grants_in_every_state

pytestmark = pytest.mark.queue


async def test_entrypoint_metrics_count_each_state_per_entrypoint(connect: Connect) -> None:
    conn = await connect()
    await grants_in_every_state(conn, 5)

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
