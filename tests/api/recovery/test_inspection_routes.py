"""GET /api/v3/internal/jobs and /internal/jobs/{id}/details: the operator's reads."""

from __future__ import annotations

from uuid import uuid4

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support.queue_helpers import enqueue_xp

from .recovery_api import MakeKey, held_job
from .recovery_fixtures import api_settings_fixture, asgi_app_fixture, service_db_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]


async def test_the_list_filters_by_state_and_entrypoint_newest_first(
    api: Client, owner: asyncpg.Connection
) -> None:
    held = await held_job(owner, "xp:held-1", user_id=7)
    uncertain = await held_job(owner, "xp:held-2", user_id=8, effects=False, uncertain=True)
    pending = (await enqueue_xp(owner, "xp:pending", user_id=9)).id

    everything = (await api.get("/api/v3/internal/jobs")).json()["jobs"]
    assert [job["id"] for job in everything] == [str(pending), str(uncertain), str(held)]
    held_list = (await api.get("/api/v3/internal/jobs", params={"state": "held"})).json()
    assert [(j["id"], j["uncertain"]) for j in held_list["jobs"]] == [
        (str(uncertain), True),
        (str(held), False),
    ]
    only_uncertain = await api.get("/api/v3/internal/jobs", params={"state": "uncertain"})
    assert [j["id"] for j in only_uncertain.json()["jobs"]] == [str(uncertain)]
    pending_list = await api.get("/api/v3/internal/jobs", params={"state": "pending"})
    assert [j["state"] for j in pending_list.json()["jobs"]] == ["pending"]
    limited = await api.get("/api/v3/internal/jobs", params={"limit": 1})
    assert [j["id"] for j in limited.json()["jobs"]] == [str(pending)]
    other = await api.get("/api/v3/internal/jobs", params={"entrypoint": "api.newsfeed.create"})
    assert other.json() == {"jobs": []}


async def test_a_bad_state_or_limit_is_400_and_an_unknown_job_404(api: Client) -> None:
    for params in ({"state": "failed"}, {"limit": 0}, {"limit": 501}):
        response = await api.get("/api/v3/internal/jobs", params=params)
        assert response.status_code == 400, params
        assert set(response.json()) == {"error", "extra", "code"}
    missing = await api.get(f"/api/v3/internal/jobs/{uuid4()}/details")
    assert (missing.status_code, missing.json()["error"]) == (404, "Job not found.")
    assert (await api.get("/api/v3/internal/jobs/nope/details")).status_code == 400


async def test_details_show_effects_budget_and_error_but_no_payload(
    api: Client, owner: asyncpg.Connection
) -> None:
    job_id = await held_job(owner, uncertain=True)
    details = (await api.get(f"/api/v3/internal/jobs/{job_id}/details")).json()
    assert (details["state"], details["status"], details["retry_enabled"]) == (
        "held",
        "failed",
        False,
    )
    assert (details["handler_failures"], details["failure_budget"]) == (1, 5)
    assert (details["error_code"], details["error_msg"]) == ("ApiError", "500 from the API")
    assert [(r["effect_key"], r["completed"]) for r in details["receipts"]] == [("xp:grant", True)]
    assert [(b["effect_key"], b["state"]) for b in details["bindings"]] == [
        ("message:xp", "completed"),
        ("message:rank_up", "uncertain"),
    ]
    assert details["actions"] == []
    assert "payload" not in details and "headers" not in details


@pytest.mark.parametrize(
    ("scopes", "status"),
    [(("jobs:manage",), 200), (("jobs:read",), 401), ((), 401)],
    ids=["jobs-manage", "jobs-read-only", "no-scope"],
)
async def test_the_reads_need_jobs_manage(
    api: Client,
    owner: asyncpg.Connection,
    make_key: MakeKey,
    scopes: tuple[str, ...],
    status: int,
) -> None:
    job_id = await held_job(owner)
    key = {"X-API-KEY": await make_key(*scopes)}
    assert (await api.get("/api/v3/internal/jobs", headers=key)).status_code == status
    details = await api.get(f"/api/v3/internal/jobs/{job_id}/details", headers=key)
    assert details.status_code == status
