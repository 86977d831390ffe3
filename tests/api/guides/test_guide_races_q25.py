"""Q25: two identical guide submissions that really overlap resolve to one guide operation.

The requests go through an ASGI client on the test's own event loop (the Litestar test client
handles one request at a time), each on its own pooled connection. The owner holds the map row so that both
block inside their transactions; the test waits until PostgreSQL shows both backends waiting on
that lock (asked from a session outside the owner's transaction), then releases it, so their
guide inserts race inside open transactions.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import asyncpg
import httpx
import pytest
from genji_api.app import create_app
from genji_api.settings import ApiSettings

from tests.support.lock_waits import held_up_by
from tests.support.seed_guides import counts, guide_setup, until
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

MakeKey = Callable[..., Awaitable[str]]


@asynccontextmanager
async def concurrent_api(
    settings: ApiSettings, make_key: MakeKey
) -> AsyncIterator[httpx.AsyncClient]:
    """A superuser client whose requests run concurrently on the test's event loop. Entered in
    the test itself: the app's lifespan must end in the task that started it."""
    app = create_app(settings)
    key = await make_key(superuser=True, username="superuser")
    async with (
        app.lifespan(),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://testserver.local",
            headers={"X-API-KEY": key},
        ) as client,
    ):
        yield client


async def _submit_together(
    api: httpx.AsyncClient,
    owner: asyncpg.Connection,
    observer: asyncpg.Connection,
    path: str,
    bodies: list[dict[str, object]],
) -> list[httpx.Response]:
    barrier = asyncio.Barrier(len(bodies))
    holder = await owner.fetchval("SELECT pg_backend_pid()")

    async def submit(body: dict[str, object]) -> httpx.Response:
        await barrier.wait()
        return await api.post(path, json=body)

    map_code = path.split("/")[-2]
    lock = owner.transaction()
    await lock.start()
    await owner.execute("SELECT 1 FROM core.maps WHERE code = $1 FOR UPDATE", map_code)
    tasks = [asyncio.create_task(submit(body)) for body in bodies]
    try:

        async def all_waiting() -> bool:
            return await held_up_by(observer, holder, "genji-api") == len(bodies)

        await until(all_waiting, 10, "both requests to wait on the held map")
    finally:
        await lock.rollback()
    return list(await asyncio.gather(*tasks))


async def test_q25_simultaneous_identical_submissions_make_one_guide(
    api_settings: ApiSettings, make_key: MakeKey, owner: asyncpg.Connection, connect: Connect
) -> None:
    state = await guide_setup(owner)
    body = {"url": state.url, "user_id": state.user_id}
    async with concurrent_api(api_settings, make_key) as client:
        responses = await _submit_together(
            client, owner, await connect(), f"/api/v3/maps/{state.code}/guides", [body, body]
        )
    assert [r.status_code for r in responses] == [201, 201]
    assert [r.json() for r in responses] == [body, body]
    totals = await counts(owner)
    assert (totals["guides"], totals["xp_grants"], totals["newsfeed"]) == (1, 1, 1)
    assert (totals["api.xp.grant"], totals["api.newsfeed.create"]) == (1, 1)


async def test_q25_simultaneous_submissions_with_different_urls_make_one_guide_and_a_conflict(
    api_settings: ApiSettings, make_key: MakeKey, owner: asyncpg.Connection, connect: Connect
) -> None:
    state = await guide_setup(owner)
    bodies: list[dict[str, object]] = [
        {"url": state.url, "user_id": state.user_id},
        {"url": state.url + "?t=1", "user_id": state.user_id},
    ]
    async with concurrent_api(api_settings, make_key) as client:
        responses = await _submit_together(
            client, owner, await connect(), f"/api/v3/maps/{state.code}/guides", bodies
        )
    assert sorted(r.status_code for r in responses) == [201, 409]
    winner = next(r for r in responses if r.status_code == 201).json()
    assert await owner.fetchval("SELECT url FROM maps.guides") == winner["url"]
    totals = await counts(owner)
    assert (totals["guides"], totals["xp_grants"], totals["newsfeed"]) == (1, 1, 1)
