"""Q18 and Q19 through the recovery API: a failure the worker records while the API is down is
read correctly by the API that starts next, from durable queue state (the job row's own status
column is never patched); and after the API and the worker restart, a retry with the saved job
UUID and generation resumes the same job with its completed effect kept."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

import asyncpg
import httpx
import pytest
from genji_api.auth import scopes
from genji_api.settings import ApiSettings
from genji_queue.complete import queue_complete
from genji_queue.receipts import effect_receipt_begin
from genji_queue.retry import queue_fail
from genji_sdk import ClaimToken

from tests.support.queue_helpers import claim_next, enqueue_xp, register_worker
from tests.support.served_api import served_api
from tests.support.testdb import Connect

from .recovery_api import ERROR, JOBS, MakeKey, held_job, retry_body
from .recovery_fixtures import api_settings_fixture, asgi_app_fixture, service_db_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.queue


async def _worker_claim(connect: Connect) -> tuple[asyncpg.Connection, ClaimToken]:
    """A fresh worker session on the bot's queue login, holding the next ready job."""
    worker = await connect("worker")
    manager = await register_worker(worker, uuid4())
    claimed = await claim_next(worker, manager)
    assert claimed is not None and claimed.queue_manager_id is not None
    return worker, ClaimToken(claimed.id, claimed.queue_manager_id, claimed.updated)


async def _read(settings: ApiSettings, key: str, job_id: UUID) -> tuple[Any, Any]:
    """Start an API, read the job's status and details, stop it."""
    with served_api(settings) as base_url:
        async with httpx.AsyncClient(base_url=base_url, headers={"X-API-KEY": key}) as client:
            status = await client.get(f"{JOBS}/{job_id}")
            details = await client.get(f"{JOBS}/{job_id}/details")
    assert (status.status_code, details.status_code) == (200, 200)
    return status.json(), details.json()


async def test_q18_a_failure_recorded_while_the_api_is_down_is_read_from_durable_state(
    api_settings: ApiSettings, owner: asyncpg.Connection, connect: Connect, make_key: MakeKey
) -> None:
    key = await make_key(scopes.JOBS_MANAGE, scopes.JOBS_READ, username="operator")
    job_id = (await enqueue_xp(owner, "xp:q18", user_id=7)).id
    status, _ = await _read(settings=api_settings, key=key, job_id=job_id)
    assert status["status"] == "queued"

    # No API runs: the worker's handler fails and the queue holds the job.
    worker, token = await _worker_claim(connect)
    assert await queue_fail(worker, token, [], ERROR) == "held"
    assert await owner.fetchval("SELECT status::text FROM jobs WHERE id = $1", job_id) == "queued"

    status, details = await _read(api_settings, key, job_id)
    assert status == {
        "id": str(job_id),
        "status": "failed",
        "error_code": "ApiError",
        "error_msg": "502 from the API",
    }
    assert (details["state"], details["status"], details["retry_enabled"]) == (
        "held",
        "failed",
        True,
    )
    assert (details["retry_generation"], details["handler_failures"]) == (0, 1)
    assert details["failure_budget"] == 5


async def test_q19_after_restarts_a_retry_with_the_saved_uuid_and_generation_resumes_the_job(
    api_settings: ApiSettings, owner: asyncpg.Connection, connect: Connect, make_key: MakeKey
) -> None:
    key = await make_key(scopes.JOBS_MANAGE, scopes.JOBS_READ, username="operator")
    job_id = await held_job(owner, "xp:q19", user_id=7)
    queue_id = await owner.fetchval("SELECT queue_job_id FROM jobs WHERE id = $1", job_id)
    saved = (job_id, 0)  # what the alert card shows, kept across the restarts

    with served_api(api_settings) as base_url:
        async with httpx.AsyncClient(base_url=base_url, headers={"X-API-KEY": key}) as client:
            retried = await client.post(
                f"{JOBS}/{saved[0]}/retry", json=retry_body("q19", saved[1])
            )
    assert (retried.json()["outcome"], retried.json()["retry_generation"]) == ("accepted", 1)

    worker, token = await _worker_claim(connect)
    assert token.queue_job_id == queue_id
    # The grant the first generation completed is replayed from its receipt, not repeated.
    grant = await effect_receipt_begin(owner, token, job_id, "xp:grant", "user:7:+5")
    assert (grant.fresh, grant.result) == (False, {"total": 5})
    assert await queue_complete(worker, token)

    status, details = await _read(api_settings, key, job_id)
    assert status["status"] == "succeeded"
    assert (details["state"], details["retry_generation"]) == ("succeeded", 1)
    assert [(r["effect_key"], r["completed"]) for r in details["receipts"]] == [("xp:grant", True)]
    assert [(b["effect_key"], b["state"]) for b in details["bindings"]] == [
        ("message:xp", "completed")
    ]
    assert await owner.fetchval("SELECT count(*) FROM jobs") == 1
