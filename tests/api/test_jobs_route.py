"""GET /api/v3/internal/jobs/{job_id}: the status projection over HTTP, with its auth rules."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from uuid import uuid4

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support.queue_helpers import enqueue_xp

pytestmark = pytest.mark.queue

MakeKey = Callable[..., Awaitable[str]]


async def test_queued_job_status_q16(api: AsyncTestClient, owner: asyncpg.Connection) -> None:  # type: ignore[type-arg]
    job = await enqueue_xp(owner, "route-status")
    response = await api.get(f"/api/v3/internal/jobs/{job.id}")
    assert response.status_code == 200
    assert response.json() == {
        "id": str(job.id),
        "status": "queued",
        "error_code": None,
        "error_msg": None,
    }


async def test_unknown_job_is_404(api: AsyncTestClient) -> None:  # type: ignore[type-arg]
    response = await api.get(f"/api/v3/internal/jobs/{uuid4()}")
    assert response.status_code == 404
    assert response.json() == {"error": "Job not found.", "extra": None, "code": "not_found"}


async def test_malformed_uuid_is_400(api: AsyncTestClient) -> None:  # type: ignore[type-arg]
    response = await api.get("/api/v3/internal/jobs/not-a-uuid")
    assert response.status_code == 400
    assert set(response.json()) == {"error", "extra", "code"}


async def test_inconsistent_metadata_names_reconciliation(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    job = await enqueue_xp(owner, "route-broken")
    # The queue row vanishes while the identity says it was never finished.
    await owner.execute(
        "DELETE FROM pgqueuer WHERE id = (SELECT queue_job_id FROM jobs WHERE id = $1)", job.id
    )
    await owner.execute(
        "DELETE FROM pgqueuer_log WHERE job_id = (SELECT queue_job_id FROM jobs WHERE id = $1)",
        job.id,
    )
    response = await api.get(f"/api/v3/internal/jobs/{job.id}")
    assert response.status_code == 500
    assert "reconcil" in response.json()["error"]


@pytest.mark.parametrize(
    ("scopes", "superuser", "status"),
    [
        ((), True, 200),
        (("jobs:read",), False, 200),
        (("jobs:manage",), False, 401),
        ((), False, 401),
    ],
    ids=["superuser", "jobs-read", "jobs-manage-only", "no-scope"],
)
async def test_job_status_auth(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
    make_key: MakeKey,
    scopes: tuple[str, ...],
    superuser: bool,
    status: int,
) -> None:
    job = await enqueue_xp(owner, "route-auth")
    key = await make_key(*scopes, superuser=superuser)
    response = await api.get(f"/api/v3/internal/jobs/{job.id}", headers={"X-API-KEY": key})
    assert response.status_code == status
    if status == 401:
        assert set(response.json()) == {"error", "extra", "code"}


async def test_missing_and_unknown_keys_are_401(api: AsyncTestClient) -> None:  # type: ignore[type-arg]
    path = f"/api/v3/internal/jobs/{uuid4()}"
    assert (await api.get(path, headers={"X-API-KEY": ""})).status_code == 401
    assert (await api.get(path, headers={"X-API-KEY": "gjs_unknown"})).status_code == 401


async def test_revoked_key_is_401(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
    make_key: MakeKey,
) -> None:
    key = await make_key(superuser=True, username="revoked")
    await owner.execute(
        "UPDATE auth.api_tokens SET revoked_at = now() WHERE key_prefix = $1", key[:8]
    )
    response = await api.get(f"/api/v3/internal/jobs/{uuid4()}", headers={"X-API-KEY": key})
    assert response.status_code == 401


async def test_keys_are_stored_only_as_digests(
    owner: asyncpg.Connection, make_key: MakeKey
) -> None:
    key = await make_key(superuser=True, username="digest")
    stored = await owner.fetch("SELECT * FROM auth.api_tokens")
    assert all(key not in str(dict(row)) for row in stored)


async def test_openapi_is_served_without_a_key(api: AsyncTestClient) -> None:  # type: ignore[type-arg]
    response = await api.get("/schema/openapi.json", headers={"X-API-KEY": ""})
    assert response.status_code == 200
    assert "/api/v3/internal/jobs/{job_id}" in response.json()["paths"]
