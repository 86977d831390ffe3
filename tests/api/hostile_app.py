"""One database and one served app for a module whose requests must all change nothing.

`snapshot` reads every business and queue table's row count in one round trip, so a module can
check after each request that nothing was written without slowing down.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
from genji_api.settings import ApiSettings
from litestar.testing import AsyncTestClient

from tests.support.secrets_seen import issue_token
from tests.support.shared_app import lent_app

from .db_state import IGNORED, SCHEMAS


class RowCounts:
    """Counts the rows of every table in the business and queue schemas."""

    def __init__(self, conn: asyncpg.Connection, names: list[str]) -> None:
        self._conn = conn
        self._names = names
        counts = ", ".join(f"(SELECT count(*) FROM {name})" for name in names)
        self._query = f"SELECT ARRAY[{counts}]::bigint[]"

    @classmethod
    async def on(cls, conn: asyncpg.Connection) -> RowCounts:
        rows = await conn.fetch(
            "SELECT format('%I.%I', table_schema, table_name) AS name "
            "FROM information_schema.tables "
            "WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE' ORDER BY 1",
            list(SCHEMAS),
        )
        names = [r["name"] for r in rows if r["name"].replace('"', "") not in IGNORED]
        return cls(conn, names)

    async def snapshot(self) -> dict[str, int]:
        counts = await self._conn.fetchval(self._query)
        return dict(zip(self._names, counts, strict=True))


@asynccontextmanager
async def superuser_client(
    settings: ApiSettings,
) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    """A client of the app served for `settings`, authenticated with a superuser key."""
    owner = await asyncpg.connect(settings.database_url)
    try:
        key = await issue_token(owner, "superuser", superuser=True, scopes=frozenset())
    finally:
        await owner.close()
    with lent_app(settings) as app:
        async with AsyncTestClient(app=app) as client:
            client.headers["X-API-KEY"] = key
            yield client
