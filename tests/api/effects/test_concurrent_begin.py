"""Concurrent begins of one send: exactly one request records the intent (`fresh`)."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
import pytest

from tests.api.concurrent_client import concurrent_api_fixture  # noqa: F401  (fixture)
from tests.support.lock_waits import held_up_by
from tests.support.seed_effects import SENDS, binding_rows, claimed
from tests.support.seed_guides import until
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


async def test_concurrent_duplicate_begins_return_one_fresh(
    concurrent_api: httpx.AsyncClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
    connect: Connect,
) -> None:
    probe = await connect()
    holder = await owner.fetchval("SELECT pg_backend_pid()")
    job = await claimed(owner, "api.notification.delivery")
    headers = job.headers("notification:dm")
    body = {"destination": "dm:1", "fingerprint": "f"}
    # Hold the queue row so every begin waits at its claim check, then let them race.
    gate = owner.transaction()
    await gate.start()
    await owner.execute("SELECT 1 FROM pgqueuer WHERE id = $1 FOR UPDATE", job.claim.queue_job_id)
    requests = [
        asyncio.create_task(concurrent_api.post(SENDS, json=body, headers=headers))
        for _ in range(4)
    ]
    try:

        async def all_waiting() -> bool:
            return await held_up_by(probe, holder, "genji-api") == len(requests)

        await until(all_waiting, 10, "every begin to wait for the queue row")
    finally:
        await gate.rollback()
    answers = await asyncio.gather(*requests)
    assert [a.status_code for a in answers] == [200] * len(requests)
    assert sorted(a.json()["fresh"] for a in answers) == [False, False, False, True]
    assert len({a.json()["created_at"] for a in answers}) == 1
    assert len(await binding_rows(owner, job)) == 1
