"""A service-side Database on the test's loop, for producers that are not HTTP routes (the drain)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from genji_api.database import Database, create_pool

from tests.support.testdb import Database as TestDatabase


@pytest.fixture
async def database(db: TestDatabase) -> AsyncIterator[Database]:
    pool = await create_pool(db.dsn, max_size=3)
    try:
        yield Database(pool)
    finally:
        await pool.close()
