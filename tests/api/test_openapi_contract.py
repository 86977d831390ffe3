"""Every operation of the served OpenAPI document, fuzzed by schemathesis against the real app.

With a superuser key, no generated request (valid or invalid per the document) may get a 5xx,
an undocumented status, a body that violates its documented schema or an undocumented content
type. With a key that has no scopes, every operation must answer 401 with the error body.
The operations come from the document the app serves, so a new route is covered as it lands.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest
import seed
from conftest import MakeKey
from genji_api.http.error_docs import ERROR_STATUSES
from genji_api.settings import ApiSettings
from openapi_fuzz import FuzzSummary, fuzz, load_schema
from openapi_walk import served_document
from schemathesis import Case, CheckContext, GenerationMode, Response
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)
from served_api import served_api

pytestmark = [pytest.mark.queue, pytest.mark.timeout(240)]

MAX_EXAMPLES = 12
UNSCOPED_EXAMPLES = 3


def rejected_as_unauthorized(ctx: CheckContext, response: Response, case: Case) -> None:
    """A key without scopes reaches no operation: a 401 with exactly the error body."""
    assert response.status_code == 401, (
        f"expected 401 for a key without scopes, got {response.status_code}"
    )
    body = response.json()
    assert isinstance(body, dict) and set(body) == {"error", "extra", "code"}, (
        f"error body {body!r}"
    )


def _fuzz_served(
    settings: ApiSettings, superuser: str, unscoped: str, pinned: dict[str, Any]
) -> tuple[FuzzSummary, FuzzSummary]:
    with served_api(settings) as base_url:
        schema = load_schema(base_url)
        authorized = fuzz(
            schema,
            base_url,
            {"X-API-KEY": superuser},
            modes=(GenerationMode.POSITIVE, GenerationMode.NEGATIVE),
            max_examples=MAX_EXAMPLES,
            pinned=pinned,
        )
        rejected = fuzz(
            schema,
            base_url,
            {"X-API-KEY": unscoped},
            checks=(
                rejected_as_unauthorized,
                response_schema_conformance,
                content_type_conformance,
            ),
            max_examples=UNSCOPED_EXAMPLES,
        )
    return authorized, rejected


async def test_every_operation_conforms_to_its_openapi_document(
    api_settings: ApiSettings, owner: asyncpg.Connection, make_key: MakeKey
) -> None:
    # Real rows, so requests naming them get past the lookups into the services.
    user_id = await seed.user(owner)
    map_id, code = await seed.game_map(owner, creator=user_id)
    completion_id = await seed.verified_completion(owner, map_id, user_id)
    pinned: dict[str, Any] = {
        "code": code,
        "map_code": code,
        "map_id": map_id,
        "user_id": user_id,
        "completion_id": completion_id,
    }
    superuser = await make_key(superuser=True, username="contract-superuser")
    unscoped = await make_key(username="contract-unscoped")

    authorized, rejected = await asyncio.to_thread(
        _fuzz_served, api_settings, superuser, unscoped, pinned
    )

    print()
    print(authorized.line("superuser key"))
    print(rejected.line("key without scopes"))
    assert authorized.operations > 0, "the served document lists no operation"
    assert rejected.operations == authorized.operations
    for summary in (authorized, rejected):
        if summary.findings:
            pytest.fail(summary.failure_report(), pytrace=False)


def test_every_operation_documents_the_error_body() -> None:
    document = served_document()
    error_schema = document["components"]["schemas"]["ErrorBody"]
    assert set(error_schema["required"]) == {"error", "extra", "code"}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for status in ERROR_STATUSES:
                response = operation["responses"].get(str(status))
                assert response is not None, f"{method.upper()} {path} omits {status}"
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (method, path, status)
