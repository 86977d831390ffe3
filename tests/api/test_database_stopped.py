"""The API while its PostgreSQL server is stopped and started again, on a cluster of this test's
own (the shared test server is never stopped): 503 with Retry-After while the server is down
(a fast shutdown ends the pool's sessions, then connections are refused), 200 once it is back,
with the same app and pool."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from genji_api.http.error_bodies import DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS
from genji_api.settings import ApiSettings
from litestar.testing import AsyncTestClient

from tests.support.artifacts import keep_log
from tests.support.harness import Stack, new_stack
from tests.support.queue_helpers import enqueue_xp
from tests.support.secrets_seen import issue_token
from tests.support.shared_app import lent_app

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

CALL_DEADLINE = 10.0


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    owned = new_stack(tmp_path)
    try:
        yield owned
    finally:
        keep_log(owned.cluster.logfile, "server.log")
        owned.cluster.destroy()


@pytest.fixture
async def owner(stack: Stack) -> AsyncIterator[asyncpg.Connection]:
    conn = await stack.connect()
    try:
        yield conn
    finally:
        if not conn.is_closed():
            await conn.close()


async def test_q07_stopped_server_is_503_until_it_restarts(
    stack: Stack, owner: asyncpg.Connection
) -> None:
    key = await issue_token(owner, "superuser", superuser=True, scopes=frozenset())
    job = await enqueue_xp(owner, "server-stopped")
    await owner.close()
    path = f"/api/v3/internal/jobs/{job.id}"
    settings = ApiSettings(database_url=stack.dsn, pool_max_size=2)

    with lent_app(settings) as app:
        async with AsyncTestClient(app=app) as api:
            api.headers["X-API-KEY"] = key
            assert (await asyncio.wait_for(api.get(path), CALL_DEADLINE)).status_code == 200

            await asyncio.to_thread(stack.cluster.stop, "fast")
            outage = await asyncio.wait_for(api.get(path), CALL_DEADLINE)
            assert outage.status_code == 503, outage.text
            assert outage.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
            assert outage.json() == {
                "error": DATABASE_UNAVAILABLE,
                "extra": None,
                "code": "unavailable",
            }

            await asyncio.to_thread(stack.cluster.start)
            recovered = await asyncio.wait_for(api.get(path), CALL_DEADLINE)
            assert recovered.status_code == 200, recovered.text
            assert recovered.json()["id"] == str(job.id)
