"""Every job route answers a UUID no job has with one 404 and one wording."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest
from genji_api.errors import JOB_NOT_FOUND
from litestar.testing import AsyncTestClient

from tests.api.openapi_walk import Operation, concrete_path, operations, sample, served_document

from .recovery_api import retry_body
from .recovery_fixtures import api_settings_fixture, asgi_app_fixture, service_db_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.queue

DOCUMENT = served_document()
JOB_OPERATIONS = [
    op
    for op in operations(DOCUMENT)
    if op.path_template.startswith("/api/v3/internal/jobs/{job_id}")
]


def _body(operation: Operation) -> dict[str, Any] | None:
    if operation.body_schema is None:
        return None
    body = sample(DOCUMENT, operation.body_schema)
    assert isinstance(body, dict)
    if "decision" in body:
        body["decision"] = "resend"
    return {**body, **retry_body("unknown-job", 0)}


@pytest.mark.parametrize("operation", JOB_OPERATIONS, ids=[op.label for op in JOB_OPERATIONS])
async def test_unknown_job_is_the_same_404_on_every_route(
    api: AsyncTestClient,  # type: ignore[type-arg]
    operation: Operation,
) -> None:
    path = concrete_path(DOCUMENT, operation, {"job_id": uuid4()})
    response = await api.request(operation.method.upper(), path, json=_body(operation))
    assert (response.status_code, response.json()) == (
        404,
        {"error": JOB_NOT_FOUND, "extra": None, "code": "not_found"},
    )
