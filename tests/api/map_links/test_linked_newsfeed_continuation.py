"""The map.linked.newsfeed.requested handler: the thread id, once, with its delivery job."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import asyncpg
import pytest
from genji_api.database import Database, create_pool
from genji_api.map_links.handler import ThreadNotReadyError, make_linked_newsfeed_handler
from genji_api.settings import ApiSettings
from genji_sdk.payloads import LinkedMapNewsfeedRequestedEvent
from litestar.testing import AsyncTestClient

from tests.support import seed_map_links as sl
from tests.support.testdb import Database as MigratedDatabase

pytestmark = pytest.mark.queue

THREAD = 9_000_000_000_000_000_007


@pytest.fixture
async def database(db: MigratedDatabase) -> AsyncIterator[Database]:
    pool = await create_pool(db.dsn, max_size=2)
    yield Database(pool)
    await pool.close()


def _event(link: dict[str, object]) -> LinkedMapNewsfeedRequestedEvent:
    return LinkedMapNewsfeedRequestedEvent(
        official_code=str(link["official"]),
        unofficial_code=str(link["unofficial"]),
        official_map_id=int(str(link["official_map_id"])),
    )


async def test_the_newsfeed_carries_the_thread_and_a_rerun_creates_nothing(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
    database: Database,
    api_settings: ApiSettings,
) -> None:
    link = await sl.playtest_link(api, owner)
    await sl.bind_thread(owner, link["official_map_id"], THREAD)
    handler = make_linked_newsfeed_handler(database, api_settings)
    for _ in range(2):
        await handler(_event(link), sl.continuation_context(link))
    rows = await owner.fetch("SELECT id, payload FROM public.newsfeed")
    assert len(rows) == 1
    assert json.loads(rows[0]["payload"]) == {
        "type": "linked_map",
        "official_code": link["official"],
        "unofficial_code": link["unofficial"],
        "playtest_id": THREAD,
    }
    assert (
        await owner.fetchval("SELECT event_key FROM jobs WHERE action = 'api.newsfeed.create'")
        == f"newsfeed:create:{rows[0]['id']}"
    )
    assert (
        await owner.fetchval(
            "SELECT newsfeed_id FROM maps.link_operations WHERE id = $1", link["link_id"]
        )
        == rows[0]["id"]
    )


async def test_a_missing_thread_is_an_ordinary_error_and_commits_nothing(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
    database: Database,
    api_settings: ApiSettings,
) -> None:
    link = await sl.playtest_link(api, owner)
    handler = make_linked_newsfeed_handler(database, api_settings)
    with pytest.raises(ThreadNotReadyError):
        await handler(_event(link), sl.continuation_context(link))
    assert await owner.fetchval("SELECT count(*) FROM public.newsfeed") == 0
    assert (
        await owner.fetchval(
            "SELECT newsfeed_id FROM maps.link_operations WHERE id = $1", link["link_id"]
        )
        is None
    )
    # Once the bot has recorded the thread, the retry announces the link.
    await sl.bind_thread(owner, link["official_map_id"], THREAD)
    await handler(_event(link), sl.continuation_context(link))
    assert await owner.fetchval("SELECT count(*) FROM public.newsfeed") == 1
