"""Fixtures of the recovery API suite, imported by its test modules (a conftest here would take
the `conftest` module name the tests of tests/api import from): the API configured with one
operator, a guild and an alert channel; the app served in-loop so that requests really
overlap; and a service-side Database of its own (the operator CLI's path)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from genji_api.app import create_app
from genji_api.database import Database, create_pool
from genji_api.settings import ApiSettings
from litestar import Litestar

from tests.support.testdb import Database as TestDatabase

from .recovery_api import ALERTS_CHANNEL_ID, GUILD_ID, OPERATOR


@pytest.fixture(name="api_settings")
def api_settings_fixture(db: TestDatabase) -> ApiSettings:
    return ApiSettings(
        database_url=db.dsn,
        pool_max_size=6,
        bot_user_id=10**18,
        queue_operator_ids=frozenset({OPERATOR}),
        discord_guild_id=GUILD_ID,
        job_alerts_channel_id=ALERTS_CHANNEL_ID,
    )


@pytest.fixture(name="asgi_app")
async def asgi_app_fixture(api_settings: ApiSettings) -> AsyncIterator[Litestar]:
    """The app with its own pool, for clients on the test's event loop (see recovery_api)."""
    app = create_app(api_settings)
    pool = await create_pool(api_settings.database_url, max_size=api_settings.pool_max_size)
    app.state.database = Database(pool, attempts=api_settings.transaction_attempts)
    app.state.settings = api_settings
    try:
        yield app
    finally:
        await pool.close()


@pytest.fixture(name="service_db")
async def service_db_fixture(api_settings: ApiSettings) -> AsyncIterator[Database]:
    """A Database of its own for calling the recovery service directly."""
    pool = await create_pool(api_settings.database_url, max_size=2)
    try:
        yield Database(pool, attempts=api_settings.transaction_attempts)
    finally:
        await pool.close()
