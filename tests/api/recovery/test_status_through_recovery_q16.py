"""Q16: GET /internal/jobs/{id} keeps its UUID and status contract through an automatic retry,
the hold, an operator retry, completion and log pruning, and the operator's details read
agrees with it at every step."""

from __future__ import annotations

from datetime import timedelta

import asyncpg
import pytest
from genji_queue.retention import queue_prune_logs
from litestar.testing import AsyncTestClient

from tests.support.queue_helpers import enqueue_xp

from .recovery_api import JOBS, retry_body, run_and_complete, run_and_fail, status_and_details
from .recovery_fixtures import api_settings_fixture, asgi_app_fixture, service_db_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.queue

NOW = [timedelta(0)]


async def test_q16_status_and_details_agree_through_retries_completion_and_pruning(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    job_id = (await enqueue_xp(owner, "xp:q16", user_id=7)).id

    async def expect(status: str, state: str, generation: int, failures: int) -> dict[str, str]:
        public, details = await status_and_details(api, job_id)
        assert public["id"] == details["id"] == str(job_id)
        assert (public["status"], details["status"]) == (status, status)
        assert (details["state"], details["retry_generation"], details["handler_failures"]) == (
            state,
            generation,
            failures,
        )
        assert details["retry_enabled"] == (state == "held")
        return public

    await expect("queued", "pending", 0, 0)
    # An automatic retry is queued again, not failed.
    assert await run_and_fail(owner, NOW) == "retry"
    retrying = await expect("queued", "retrying", 0, 1)
    assert (retrying["error_code"], retrying["error_msg"]) == (None, None)
    # The schedule is exhausted: held, with the recorded error.
    assert await run_and_fail(owner, NOW) == "held"
    held = await expect("failed", "held", 0, 2)
    assert (held["error_code"], held["error_msg"]) == ("ApiError", "502 from the API")

    retried = await api.post(f"{JOBS}/{job_id}/retry", json=retry_body("q16-retry", 0))
    assert retried.json()["outcome"] == "accepted"
    # The active row wins over the failure logs of the earlier generation.
    requeued = await expect("queued", "pending", 1, 0)
    assert (requeued["error_code"], requeued["error_msg"]) == (None, None)

    await run_and_complete(owner)
    await expect("succeeded", "succeeded", 1, 0)

    await owner.execute("UPDATE pgqueuer_log SET created = now() - interval '31 days'")
    assert await queue_prune_logs(owner) == 1
    assert await owner.fetchval("SELECT count(*) FROM pgqueuer_log") == 0
    await expect("succeeded", "succeeded", 1, 0)
    _, details = await status_and_details(api, job_id)
    assert [(a["action"], a["outcome"]) for a in details["actions"]] == [("retry", "accepted")]
