"""A client that serves the app on the test's own event loop, so requests really overlap.

AsyncTestClient runs the app on a portal thread and blocks the test's loop for each request;
this one serves it in-loop over ASGI, with a pool of its own. Import the fixture into a test
module to use it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from genji_api.app import create_app
from genji_api.database import Database, create_pool
from genji_api.settings import ApiSettings

from tests.api.keys import MakeKey


@pytest.fixture(name="concurrent_api")
async def concurrent_api_fixture(
    api_settings: ApiSettings, make_key: MakeKey
) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(api_settings)
    pool = await create_pool(api_settings.database_url, max_size=api_settings.pool_max_size)
    app.state.database = Database(pool, attempts=api_settings.transaction_attempts)
    app.state.settings = api_settings
    key = await make_key(superuser=True, username="concurrent")
    try:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://testserver",
            headers={"X-API-KEY": key},
        ) as client:
            yield client
    finally:
        await pool.close()
