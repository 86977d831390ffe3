"""The API while its database is unreachable: 503 with Retry-After, then 200 again, no restart.

The API's sessions are terminated by the administrator while the test database refuses new
ones, so the pool loses its connections and cannot replace them; the rest of the shared server
is untouched. Every call has a deadline: nothing here waits on a lock.
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg
import pytest
from genji_api.http.error_bodies import DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS
from httpx import Response
from litestar.testing import AsyncTestClient

from tests.support.queue_helpers import enqueue_xp
from tests.support.testdb import Database

from .openapi_walk import served_document

pytestmark = pytest.mark.queue

CALL_DEADLINE = 10.0
# How the database refuses new sessions, with the SQLSTATE the pool then meets on connect.
REFUSALS = {
    "too-many-connections-53300": ("CONNECTION LIMIT 0", "CONNECTION LIMIT -1"),
    "not-accepting-55000": ("ALLOW_CONNECTIONS false", "ALLOW_CONNECTIONS true"),
}


async def _admin(db: Database) -> asyncpg.Connection:
    return await asyncpg.connect(db.admin_dsn.rsplit("/", 1)[0] + "/postgres")


async def _cut_off(db: Database, refuse: str) -> None:
    """Refuse new sessions to the test database, then end the API's and wait until they are
    gone."""
    admin = await _admin(db)
    try:
        await admin.execute(f'ALTER DATABASE "{db.name}" {refuse}')
        ended = await admin.fetch(
            "SELECT pg_terminate_backend(pid, 5000) AS ended FROM pg_stat_activity "
            "WHERE datname = $1 AND application_name = 'genji-api'",
            db.name,
        )
        assert ended and all(row["ended"] for row in ended), ended
    finally:
        await admin.close()


async def _restore(db: Database, allow: str) -> None:
    admin = await _admin(db)
    try:
        await admin.execute(f'ALTER DATABASE "{db.name}" {allow}')
    finally:
        await admin.close()


async def _get(api: AsyncTestClient, path: str) -> Response:  # type: ignore[type-arg]
    return await asyncio.wait_for(api.get(path), CALL_DEADLINE)


@pytest.mark.parametrize("refusal", list(REFUSALS), ids=list(REFUSALS))
async def test_q07_lost_database_is_503_until_it_returns(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
    db: Database,
    caplog: pytest.LogCaptureFixture,
    refusal: str,
) -> None:
    refuse, allow = REFUSALS[refusal]
    job = await enqueue_xp(owner, "outage")
    path = f"/api/v3/internal/jobs/{job.id}"
    assert (await _get(api, path)).status_code == 200

    caplog.set_level(logging.INFO, logger="genji.api")
    await _cut_off(db, refuse)
    try:
        outage = await _get(api, path)
    finally:
        await _restore(db, allow)
    # The pool's own maintenance (logger asyncpg.pool) may also warn while it retries.
    logged = [r for r in caplog.records if r.name.startswith("genji.api")]

    assert outage.status_code == 503, outage.text
    assert outage.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert outage.json() == {"error": DATABASE_UNAVAILABLE, "extra": None, "code": "unavailable"}
    assert [(r.name, r.levelname) for r in logged] == [("genji.api", "WARNING")], logged
    message = logged[0].getMessage()
    assert path in message and "database unavailable" in message
    assert api.headers["X-API-KEY"] not in message

    recovered = await _get(api, path)
    assert recovered.status_code == 200, recovered.text
    assert recovered.json()["id"] == str(job.id)


def test_every_operation_documents_the_outage_answer() -> None:
    paths = served_document()["paths"]
    for path, item in paths.items():
        for method, operation in item.items():
            response = operation["responses"].get("503")
            assert response is not None, f"{method.upper()} {path} omits 503"
            schema = response["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (method, path)
