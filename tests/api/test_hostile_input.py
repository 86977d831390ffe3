"""Hostile input on every route answers a 4xx with the legacy error body and writes nothing.

The routes come from the app's own OpenAPI document: OPTIONS without a key, a NUL character in
a body's first string field, a body nested thousands of levels deep, an empty body, and NUL in
a query value. After each request every business and queue table holds as many rows as before.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import pytest
import pytest_asyncio
from genji_api.http.json_body import MAX_BODY_DEPTH
from genji_api.settings import ApiSettings
from genji_sdk.api_errors import code_for_status
from litestar.testing import AsyncTestClient

from tests.api.keys import BOT_USER_ID
from tests.support.clones import cloned_database
from tests.support.testdb import Database, Server

from .hostile_app import RowCounts, superuser_client
from .openapi_walk import (
    Operation,
    concrete_path,
    json_body_operations,
    resolve,
    sample,
    served_document,
)

pytestmark = [pytest.mark.queue, pytest.mark.asyncio(loop_scope="module")]

DOCUMENT = served_document()
PATHS = sorted(DOCUMENT["paths"])
BODY_OPERATIONS = json_body_operations(DOCUMENT)
DEEP = 10_000
NUL = "nul\x00here"


@pytest.fixture(scope="module")
def module_db(pg_server: Server, postgresql_noproc: Any) -> Iterator[Database]:
    with cloned_database(pg_server, postgresql_noproc.template_dbname, "genji_hostile") as db:
        yield db


@pytest.fixture(scope="module")
def api_settings(module_db: Database) -> ApiSettings:
    return ApiSettings(database_url=module_db.dsn, pool_max_size=4, bot_user_id=BOT_USER_ID)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def api(api_settings: ApiSettings) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    async with superuser_client(api_settings) as client:
        yield client


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def rows(api_settings: ApiSettings) -> AsyncIterator[RowCounts]:
    conn = await asyncpg.connect(api_settings.database_url)
    try:
        yield await RowCounts.on(conn)
    finally:
        await conn.close()


def _first_string_field(operation: Operation) -> str | None:
    schema = resolve(DOCUMENT, operation.body_schema or {})
    for name, prop in schema.get("properties", {}).items():
        prop = resolve(DOCUMENT, prop)
        options = [resolve(DOCUMENT, p) for p in prop.get("oneOf", prop.get("anyOf", []))]
        kinds = {prop.get("type"), *(o.get("type") for o in options)}
        formats = {prop.get("format"), *(o.get("format") for o in options)}
        if "string" in kinds and not formats & {"uuid", "date-time", "date"}:
            return name
    return None


NUL_OPERATIONS = [op for op in BODY_OPERATIONS if _first_string_field(op) is not None]


def _valid_object(operation: Operation) -> dict[str, Any]:
    value = sample(DOCUMENT, operation.body_schema or {})
    return value if isinstance(value, dict) else {}


def assert_error_body(response: Any, status: int, *words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "extra", "code"}, body
    assert body["code"] == code_for_status(status), body
    for word in words:
        assert word in body["error"], body


@pytest.mark.parametrize("path", PATHS)
async def test_options_without_a_key_answers_allow_and_never_fails(
    api: AsyncTestClient,  # type: ignore[type-arg]
    rows: RowCounts,
    path: str,
) -> None:
    before = await rows.snapshot()
    response = await api.options(
        concrete_path(DOCUMENT, _any_operation(path)), headers={"X-API-KEY": ""}
    )
    assert response.status_code in (200, 204, 405), response.text
    assert "Allow" in response.headers
    assert "auth" not in response.text.lower(), response.text
    allowed = {m.strip() for m in response.headers["Allow"].split(",")}
    assert "OPTIONS" in allowed
    assert allowed <= {m.upper() for m in DOCUMENT["paths"][path]} | {"OPTIONS"}
    assert await rows.snapshot() == before


def _any_operation(path: str) -> Operation:
    method, item = next(iter(DOCUMENT["paths"][path].items()))
    return Operation(method, path, tuple(item.get("parameters", ())), None)


@pytest.mark.parametrize("operation", NUL_OPERATIONS, ids=[op.label for op in NUL_OPERATIONS])
async def test_nul_in_a_body_string_is_a_client_error_and_writes_nothing(
    api: AsyncTestClient,  # type: ignore[type-arg]
    rows: RowCounts,
    operation: Operation,
) -> None:
    field = _first_string_field(operation)
    assert field is not None
    body = {**_valid_object(operation), field: NUL}
    before = await rows.snapshot()
    response = await api.request(
        operation.method.upper(), concrete_path(DOCUMENT, operation), json=body
    )
    assert_error_body(response, 400, "NUL")
    assert await rows.snapshot() == before


@pytest.mark.parametrize("operation", BODY_OPERATIONS, ids=[op.label for op in BODY_OPERATIONS])
async def test_deeply_nested_body_is_a_client_error_and_writes_nothing(
    api: AsyncTestClient,  # type: ignore[type-arg]
    rows: RowCounts,
    operation: Operation,
) -> None:
    before = await rows.snapshot()
    response = await api.request(
        operation.method.upper(),
        concrete_path(DOCUMENT, operation),
        content=b"[" * DEEP + b"]" * DEEP,
        headers={"Content-Type": "application/json"},
    )
    assert_error_body(response, 400, f"nested more than {MAX_BODY_DEPTH} levels")
    assert await rows.snapshot() == before


@pytest.mark.parametrize("operation", BODY_OPERATIONS, ids=[op.label for op in BODY_OPERATIONS])
async def test_empty_body_is_named_and_writes_nothing(
    api: AsyncTestClient,  # type: ignore[type-arg]
    rows: RowCounts,
    operation: Operation,
) -> None:
    before = await rows.snapshot()
    response = await api.request(
        operation.method.upper(),
        concrete_path(DOCUMENT, operation),
        content=b"",
        headers={"Content-Type": "application/json"},
    )
    assert_error_body(response, 400, "request body is empty")
    assert await rows.snapshot() == before


@pytest.mark.parametrize("operation", BODY_OPERATIONS, ids=[op.label for op in BODY_OPERATIONS])
async def test_body_that_is_not_json_is_named(
    api: AsyncTestClient,  # type: ignore[type-arg]
    operation: Operation,
) -> None:
    response = await api.request(
        operation.method.upper(),
        concrete_path(DOCUMENT, operation),
        content=b"name=value",
        headers={"Content-Type": "application/json"},
    )
    assert_error_body(response, 400, "request body is not valid JSON: ")


async def test_nested_at_the_bound_is_not_refused_for_depth(
    api: AsyncTestClient,  # type: ignore[type-arg]
) -> None:
    operation = BODY_OPERATIONS[0]
    nested = json.loads("[" * (MAX_BODY_DEPTH - 1) + "]" * (MAX_BODY_DEPTH - 1))
    body = {**_valid_object(operation), "zz_unknown": nested}
    response = await api.request(
        operation.method.upper(), concrete_path(DOCUMENT, operation), json=body
    )
    assert response.status_code == 400, response.text
    assert "nested" not in response.json()["error"]


async def test_nul_in_a_query_value_is_a_client_error(
    api: AsyncTestClient,  # type: ignore[type-arg]
    rows: RowCounts,
) -> None:
    before = await rows.snapshot()
    response = await api.get("/api/v3/internal/jobs", params={"entrypoint": NUL})
    assert_error_body(response, 400, "cannot store")
    assert await rows.snapshot() == before


async def test_invalid_query_value_names_the_parameter_as_sent(
    api: AsyncTestClient,  # type: ignore[type-arg]
) -> None:
    response = await api.get("/api/v3/internal/jobs", params={"state": "done"})
    assert response.status_code == 400, response.text
    assert "job_state" not in response.text
    assert [item.get("key") for item in response.json()["extra"]] == ["state"]
