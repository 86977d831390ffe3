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
from genji_api.http.error_docs import ERROR_STATUSES
from genji_api.settings import ApiSettings
from schemathesis import Case, CheckContext, GenerationMode, Response
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from tests.api.keys import MakeKey
from tests.support import seed
from tests.support.served_api import served_api

from .openapi_fuzz import FuzzSummary, fuzz, load_schema
from .openapi_walk import served_document

# Thousands of requests against one served API within the timeout: next to other xdist
# workers on a small machine it ran past it, so it runs alone.
pytestmark = [pytest.mark.queue, pytest.mark.timeout(240), pytest.mark.alone]

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


def test_every_operation_has_a_human_summary_and_a_description() -> None:
    document = served_document()
    bare = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            summary = operation.get("summary") or ""
            description = operation.get("description") or ""
            label = f"{method.upper()} {path}"
            if not summary or summary.isidentifier() or " " not in summary.strip():
                bare.append(f"{label}: summary {summary!r}")
            if not description.strip() or description.strip() == summary:
                bare.append(f"{label}: description {description!r}")
    assert not bare, "operations that do not describe themselves:\n" + "\n".join(bare)


def _integer_bounds(node: Any) -> list[tuple[str, Any]]:
    found = []
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if item.get("type") == "integer":
                found += [(key, item[key]) for key in BOUNDS if key in item]
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return found


BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def test_64_bit_integer_bounds_are_exact_integers() -> None:
    """A float past 2**53 cannot hold a 64-bit bound: 2**63 - 1 would read as 2**63."""
    bounds = _integer_bounds(served_document())
    assert ("maximum", 2**63 - 1) in bounds, "no 64-bit bound found to check"
    inexact = sorted(
        {
            (key, value)
            for key, value in bounds
            if isinstance(value, float) and (abs(value) >= 2**53 or not value.is_integer())
        }
    )
    assert not inexact, f"integer bounds printed as floats: {inexact}"
