"""Every operation with a JSON body rejects bad bodies with a 4xx and the error body, never a 500.

The operations come from the app's own OpenAPI document: malformed JSON, an array where an
object is expected, an unknown field, a value of the wrong type and a body over the configured
size limit.

None of these requests may change anything, so the module shares one database and one served
app (with a small body limit) rather than building both for each of its many cases.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import asyncpg
import pytest
import pytest_asyncio
from genji_api.settings import ApiSettings
from litestar.testing import AsyncTestClient

from tests.api.keys import BOT_USER_ID
from tests.support.clones import cloned_database
from tests.support.secrets_seen import issue_token
from tests.support.shared_app import lent_app
from tests.support.testdb import Database, Server

from .openapi_walk import (
    Operation,
    concrete_path,
    integer_path_parameters,
    json_body_operations,
    operations,
    resolve,
    sample,
    served_document,
    wrong_type,
)

# Under xdist the module's tests stay on one worker, which builds its module fixtures once.
pytestmark = [
    pytest.mark.queue,
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.xdist_group("api-bad-input"),
]

DOCUMENT = served_document()
OPERATIONS = json_body_operations(DOCUMENT)
UNKNOWN_FIELD = "zz_not_a_declared_field"
MAX_BODY_BYTES = 4096
HUGE = 2**63  # past int8, and so past every integer column


@pytest.fixture(scope="module")
def module_db(pg_server: Server, postgresql_noproc: Any) -> Iterator[Database]:
    with cloned_database(pg_server, postgresql_noproc.template_dbname, "genji_bad_input") as db:
        yield db


@pytest.fixture(scope="module")
def api_settings(module_db: Database) -> ApiSettings:
    """A small body limit, so the oversized body stays cheap to send."""
    return ApiSettings(
        database_url=module_db.dsn,
        pool_max_size=6,
        bot_user_id=BOT_USER_ID,
        request_max_body_bytes=MAX_BODY_BYTES,
    )


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def api(api_settings: ApiSettings) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    """A client of the served app, authenticated with a superuser key."""
    owner = await asyncpg.connect(api_settings.database_url)
    try:
        key = await issue_token(owner, "superuser", superuser=True, scopes=frozenset())
    finally:
        await owner.close()
    with lent_app(api_settings) as app:
        async with AsyncTestClient(app=app) as client:
            client.headers["X-API-KEY"] = key
            yield client


def _valid_object(operation: Operation) -> dict[str, Any]:
    value = sample(DOCUMENT, operation.body_schema or {})
    return value if isinstance(value, dict) else {}


def _with_unknown_field(operation: Operation) -> bytes:
    # First in the object, so it is the first problem a decoder meets.
    return json.dumps({UNKNOWN_FIELD: 1, **_valid_object(operation)}).encode()


def _with_wrong_type(operation: Operation) -> bytes:
    schema = resolve(DOCUMENT, operation.body_schema or {})
    props = schema.get("properties", {})
    body = _valid_object(operation)
    if not props:
        return json.dumps(wrong_type(DOCUMENT, schema)).encode()
    name = next(iter(schema.get("required") or props))
    return json.dumps({**body, name: wrong_type(DOCUMENT, props[name])}).encode()


def _oversized(operation: Operation) -> bytes:
    return json.dumps({**_valid_object(operation), "pad": "x" * MAX_BODY_BYTES}).encode()


def _huge_integers(operation: Operation) -> bytes:
    """Every integer property past what an int8 column holds."""
    schema = resolve(DOCUMENT, operation.body_schema or {})
    body = _valid_object(operation)
    for name, prop in schema.get("properties", {}).items():
        if _is_integer(prop):
            body[name] = HUGE
    return json.dumps(body).encode()


def _is_integer(schema: dict[str, Any]) -> bool:
    schema = resolve(DOCUMENT, schema)
    kinds = schema.get("type")
    options = [
        resolve(DOCUMENT, s).get("type") for s in schema.get("oneOf", schema.get("anyOf", []))
    ]
    return (
        kinds == "integer"
        or (isinstance(kinds, list) and "integer" in kinds)
        or "integer" in options
    )


BadBody = Callable[[Operation], bytes]
BAD_BODIES: dict[str, tuple[BadBody, int]] = {
    "malformed-json": (lambda _: b'{"unterminated": ', 400),
    "array-not-object": (lambda op: json.dumps([_valid_object(op)]).encode(), 400),
    "unknown-field": (_with_unknown_field, 400),
    "wrong-type": (_with_wrong_type, 400),
    "over-size-limit": (_oversized, 413),
}


@pytest.mark.parametrize("kind", sorted(BAD_BODIES))
@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
async def test_bad_json_body_is_a_client_error(
    api: AsyncTestClient,  # type: ignore[type-arg]
    operation: Operation,
    kind: str,
) -> None:
    make_body, status = BAD_BODIES[kind]
    response = await api.request(
        operation.method.upper(),
        concrete_path(DOCUMENT, operation),
        content=make_body(operation),
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error", "extra", "code"}, body
    assert isinstance(body["error"], str) and body["error"]
    if kind == "unknown-field":
        assert UNKNOWN_FIELD in response.text, "the error does not name the unknown field"


def _operations_with_integers() -> list[Operation]:
    found = []
    for op in OPERATIONS:
        props = resolve(DOCUMENT, op.body_schema or {}).get("properties", {})
        if any(_is_integer(prop) for prop in props.values()):
            found.append(op)
    return found


INTEGER_BODY_OPERATIONS = _operations_with_integers()
INTEGER_PATH_OPERATIONS = [
    op for op in operations(DOCUMENT) if integer_path_parameters(DOCUMENT, op)
]


@pytest.mark.parametrize("value", [2**31, HUGE], ids=["past-int4", "past-int8"])
@pytest.mark.parametrize(
    "operation", INTEGER_PATH_OPERATIONS, ids=[op.label for op in INTEGER_PATH_OPERATIONS]
)
async def test_out_of_range_integer_in_path_is_a_client_error(
    api: AsyncTestClient,  # type: ignore[type-arg]
    operation: Operation,
    value: int,
) -> None:
    names = integer_path_parameters(DOCUMENT, operation)
    path = concrete_path(DOCUMENT, operation, dict.fromkeys(names, value))
    body = _valid_object(operation) if operation.body_schema is not None else None
    response = await api.request(operation.method.upper(), path, json=body)
    assert response.status_code in (400, 404), response.text
    assert set(response.json()) == {"error", "extra", "code"}


@pytest.mark.parametrize(
    "operation", INTEGER_BODY_OPERATIONS, ids=[op.label for op in INTEGER_BODY_OPERATIONS]
)
async def test_out_of_range_integer_in_body_is_a_client_error(
    api: AsyncTestClient,  # type: ignore[type-arg]
    operation: Operation,
) -> None:
    response = await api.request(
        operation.method.upper(),
        concrete_path(DOCUMENT, operation),
        content=_huge_integers(operation),
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code in (400, 404), response.text
    assert set(response.json()) == {"error", "extra", "code"}
