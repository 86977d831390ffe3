"""A service-side Database on the test's own event loop (the served app's pool is the client's)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from genji_api.database import Database, create_pool
from genji_api.settings import ApiSettings


@pytest.fixture
async def database(api_settings: ApiSettings) -> AsyncIterator[Database]:
    pool = await create_pool(api_settings.database_url, max_size=4)
    try:
        yield Database(pool)
    finally:
        await pool.close()
