"""Q24: a retried job that fails again is held under generation 1 and inspectable as such; a
retry for generation 0 answers stale_generation and cannot act on it; a retry for generation 1
is accepted."""

from __future__ import annotations

import asyncpg
import pytest
from genji_api.auth import scopes
from litestar import Litestar

from .recovery_api import (
    JOBS,
    MakeKey,
    audit,
    client,
    held_job,
    retry_body,
    run_and_fail,
    snapshot,
    status_and_details,
)
from .recovery_fixtures import api_settings_fixture, asgi_app_fixture, service_db_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.queue


async def test_q24_a_second_failure_is_held_under_its_generation_and_old_retries_cannot_act(
    asgi_app: Litestar, owner: asyncpg.Connection, make_key: MakeKey
) -> None:
    job_id = await held_job(owner, "xp:q24")
    key = await make_key(scopes.JOBS_MANAGE, scopes.JOBS_READ, username="operator")
    async with client(asgi_app, key) as operator:
        first = await operator.post(f"{JOBS}/{job_id}/retry", json=retry_body("q24-1", 0))
        assert first.json()["outcome"] == "accepted"
        assert await run_and_fail(owner, []) == "held"

        public, details = await status_and_details(operator, job_id)
        assert (public["status"], public["error_code"]) == ("failed", "ApiError")
        assert (details["state"], details["retry_generation"], details["retry_enabled"]) == (
            "held",
            1,
            True,
        )
        assert (details["handler_failures"], details["error_msg"]) == (1, "502 from the API")
        assert [(a["action"], a["expected_generation"]) for a in details["actions"]] == [
            ("retry", 0)
        ]
        held = (await operator.get(JOBS, params={"state": "held"})).json()["jobs"]
        assert [(j["id"], j["retry_generation"]) for j in held] == [(str(job_id), 1)]

        before = await snapshot(owner)
        stale = await operator.post(f"{JOBS}/{job_id}/retry", json=retry_body("q24-2", 0))
        assert (stale.json()["outcome"], stale.json()["retry_generation"]) == (
            "stale_generation",
            1,
        )
        # The first request's key only replays its own result.
        replayed = await operator.post(f"{JOBS}/{job_id}/retry", json=retry_body("q24-1", 0))
        assert (replayed.json()["outcome"], replayed.json()["action_id"]) == (
            "duplicate",
            first.json()["action_id"],
        )
        assert await snapshot(owner) == before

        current = await operator.post(f"{JOBS}/{job_id}/retry", json=retry_body("q24-3", 1))
        assert (current.json()["outcome"], current.json()["retry_generation"]) == ("accepted", 2)
    assert await audit(owner, job_id) == [("retry", "accepted", 0), ("retry", "accepted", 1)]
