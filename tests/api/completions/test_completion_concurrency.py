"""Concurrent submissions: a duplicate run commits once; different users both commit.

Each submission runs the route's service on its own pooled connection of a pool on the test's
event loop. Both are held at the same point of their transactions (behind a lock the test owns)
until the test has seen both waiting, so they really overlap; then the lock is released.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest
from genji_api.completions.models import CompletionSubmitRequest
from genji_api.completions.submission import submit_completion
from genji_api.database import Database, create_pool
from genji_api.errors import ApiError

from tests.support import seed, testdb
from tests.support import seed_completions as sc
from tests.support.harness import eventually

from .jobs_view import all_actions

pytestmark = pytest.mark.queue


@pytest.fixture
async def database(db: testdb.Database) -> Any:
    pool = await create_pool(db.dsn, max_size=3)
    yield Database(pool)
    await pool.close()


async def _submit(database: Database, body: dict[str, Any]) -> int | str:
    """The new completion id, or the error's class name."""
    request = CompletionSubmitRequest(**body)
    try:
        result = await submit_completion(database, request, bot_user_id=seed.BASE_USER_ID)
    except ApiError as error:
        return type(error).__name__
    return result.completion_id


async def _waiting_requests(owner: asyncpg.Connection, count: int) -> bool:
    """True once `count` API transactions are waiting for a lock."""
    waiting = await owner.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'genji-api' "
        "AND wait_event_type = 'Lock' AND datname = current_database()"
    )
    return bool(waiting == count)


async def _overlapping(
    database: Database,
    owner: asyncpg.Connection,
    blocker: asyncpg.Connection,
    bodies: list[dict[str, Any]],
) -> list[int | str]:
    """Submit `bodies` at once while `blocker` holds a lock every one of them needs."""
    requests = [asyncio.ensure_future(_submit(database, body)) for body in bodies]
    try:
        await eventually(
            lambda: _waiting_requests(owner, len(bodies)), what="both submissions waiting"
        )
    finally:
        await blocker.execute("ROLLBACK")
    return list(await asyncio.gather(*requests))


async def test_duplicate_submissions_commit_one_completion(
    database: Database, owner: asyncpg.Connection, connect: Any
) -> None:
    _, code = await seed.game_map(owner)
    player = await seed.user(owner)
    blocker: asyncpg.Connection = await connect("owner")
    await blocker.execute("BEGIN")
    # The map's row, shared by each insert's foreign-key check: a barrier every submission
    # reaches whatever it does to serialize one user's runs.
    await blocker.execute("SELECT 1 FROM core.maps WHERE code = $1 FOR UPDATE", code)
    body = {"code": code, "user_id": player, "time": 44.0, "screenshot": sc.SCREENSHOT}
    responses = await _overlapping(database, owner, blocker, [body, body])
    [created] = [r for r in responses if isinstance(r, int)]
    assert sorted(responses, key=str) == sorted([created, "BadRequestError"], key=str)
    assert (
        await owner.fetchval("SELECT count(*) FROM core.completions WHERE user_id = $1", player)
        == 1
    )
    assert await all_actions(owner) == ["completion.ocr.requested"]


async def test_two_players_commit_separately(
    database: Database, owner: asyncpg.Connection, connect: Any
) -> None:
    _, code = await seed.game_map(owner)
    first, second = await seed.user(owner), await seed.user(owner)
    # Each insert's foreign-key check shares the map's row, so holding it makes both wait there.
    blocker: asyncpg.Connection = await connect("owner")
    await blocker.execute("BEGIN")
    await blocker.execute("SELECT 1 FROM core.maps WHERE code = $1 FOR UPDATE", code)
    bodies = [
        {"code": code, "user_id": user, "time": 44.0, "screenshot": sc.SCREENSHOT}
        for user in (first, second)
    ]
    responses = await _overlapping(database, owner, blocker, bodies)
    assert all(isinstance(r, int) and r > 0 for r in responses)
    assert len(set(responses)) == 2
    assert await all_actions(owner) == ["completion.ocr.requested"] * 2
