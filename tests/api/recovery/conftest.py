"""The recovery API suite: the API configured with one operator, a guild and an alert channel;
the app served in-loop so that requests really overlap; a service-side Database of its own (the
operator CLI's path); and the held-job helpers of tests/recovery."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from genji_api.app import create_app
from genji_api.database import Database, create_pool
from genji_api.settings import ApiSettings
from litestar import Litestar
from testdb import Database as TestDatabase

TESTS = Path(__file__).parents[2]
sys.path[:0] = [str(TESTS / "recovery"), str(TESTS / "lifecycle")]

from recovery_api import ALERTS_CHANNEL_ID, GUILD_ID, OPERATOR  # noqa: E402  (after the path)


@pytest.fixture
def api_settings(db: TestDatabase) -> ApiSettings:
    return ApiSettings(
        database_url=db.dsn,
        pool_max_size=6,
        bot_user_id=10**18,
        queue_operator_ids=frozenset({OPERATOR}),
        discord_guild_id=GUILD_ID,
        job_alerts_channel_id=ALERTS_CHANNEL_ID,
    )


@pytest.fixture
async def asgi_app(api_settings: ApiSettings) -> AsyncIterator[Litestar]:
    """The app with its own pool, for clients on the test's event loop (see recovery_api)."""
    app = create_app(api_settings)
    pool = await create_pool(api_settings.database_url, max_size=api_settings.pool_max_size)
    app.state.database = Database(pool, attempts=api_settings.transaction_attempts)
    app.state.settings = api_settings
    try:
        yield app
    finally:
        await pool.close()


@pytest.fixture
async def service_db(api_settings: ApiSettings) -> AsyncIterator[Database]:
    """A Database of its own for calling the recovery service directly."""
    pool = await create_pool(api_settings.database_url, max_size=2)
    try:
        yield Database(pool, attempts=api_settings.transaction_attempts)
    finally:
        await pool.close()
