"""An API served on the test database, reached through its real HTTP routes."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest
from genji_api.settings import ApiSettings
from litestar.testing import AsyncTestClient

from tests.support.secrets_seen import issue_token
from tests.support.shared_app import lent_app
from tests.support.testdb import Connect, Database

from .keys import BOT_USER_ID, MakeKey


@pytest.fixture
def api_settings(db: Database) -> ApiSettings:
    return ApiSettings(database_url=db.dsn, pool_max_size=6, bot_user_id=BOT_USER_ID)


@pytest.fixture
async def owner(connect: Connect) -> asyncpg.Connection:
    """An independent owner connection: seeds data and inspects what requests committed.

    The bot's own account exists, as in production: automatic verdicts name it.
    """
    conn = await connect("owner")
    await conn.execute(
        "INSERT INTO core.users (id, nickname) VALUES ($1, 'Genji Shimada') "
        "ON CONFLICT (id) DO NOTHING",
        BOT_USER_ID,
    )
    return conn


@pytest.fixture
async def make_key(owner: asyncpg.Connection) -> MakeKey:
    """Issue an API key: a superuser one, or one with the given scopes."""

    async def _make(*scopes: str, superuser: bool = False, username: str = "tests") -> str:
        return await issue_token(owner, username, superuser=superuser, scopes=frozenset(scopes))

    return _make


@pytest.fixture
async def api(api_settings: ApiSettings, make_key: MakeKey) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    """A client of the served app, authenticated with a superuser key."""
    key = await make_key(superuser=True, username="superuser")
    with lent_app(api_settings) as app:
        async with AsyncTestClient(app=app) as client:
            client.headers["X-API-KEY"] = key
            yield client
