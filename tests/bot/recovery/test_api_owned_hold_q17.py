"""Q17 for an API-owned entrypoint: completion.ocr.requested, run by the worker inside the real
API process, fails on every attempt (its decision cannot be written) until its retries are
exhausted. The held state, generation, error summary and spent budget are durable and readable
through the API; the automatic retries reused the one logical job and its queue row. Once the
fault is gone, the operator's retry finishes that same job.
"""

from __future__ import annotations

from uuid import UUID

import pytest

from tests.support import seed, seed_completions

from .recovery_stack import BUDGET, RecoveryStack, retry_request

pytestmark = pytest.mark.queue

EVENT = "completion.ocr.requested"
REFUSAL = "completion decisions are refused for this test"


async def _refuse_decisions(recovery: RecoveryStack) -> None:
    """The decision's insert fails inside the handler's transaction, on every attempt."""
    await recovery.owner.execute(
        f"""CREATE FUNCTION completions.refuse_decisions() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN RAISE EXCEPTION '{REFUSAL}'; END $$;
            CREATE TRIGGER refuse_decisions BEFORE INSERT ON completions.ocr_decisions
            FOR EACH ROW EXECUTE FUNCTION completions.refuse_decisions()"""
    )


async def _submit_screenshot_run(recovery: RecoveryStack) -> tuple[int, UUID]:
    owner = recovery.owner
    user_id = await seed.user(owner)
    _, code = await seed.game_map(owner)
    response = await recovery.http.post(
        "/completions/",
        json={
            "code": code,
            "user_id": user_id,
            "time": 42.5,
            "screenshot": seed_completions.SCREENSHOT,
        },
    )
    assert response.status_code == 201, response.text
    ((job_id, _),) = await recovery.logical_jobs(EVENT)
    return response.json()["completion_id"], job_id


async def _decisions(recovery: RecoveryStack, completion_id: int) -> list[str]:
    rows = await recovery.owner.fetch(
        "SELECT outcome FROM completions.ocr_decisions WHERE completion_id = $1", completion_id
    )
    return [r["outcome"] for r in rows]


async def test_q17_api_owned_job_exhausts_its_retries_in_the_api_worker_and_is_held(
    recovery: RecoveryStack,
) -> None:
    await _refuse_decisions(recovery)
    completion_id, job_id = await _submit_screenshot_run(recovery)
    await recovery.until_held(job_id, 0)

    held = await recovery.job(job_id)
    assert (held["queue_status"], held["retry_generation"], held["handler_failures"]) == (
        "failed",
        0,
        BUDGET,
    )
    assert held["held_at"] is not None
    assert held["error_code"] == "RaiseError" and REFUSAL in held["error_msg"]
    status = await recovery.public_status(job_id)
    assert status == {
        "id": str(job_id),
        "status": "failed",
        "error_code": "RaiseError",
        "error_msg": held["error_msg"],
    }
    # Every automatic retry ran the same job on its one queue row.
    assert await recovery.logical_jobs(EVENT) == [(job_id, f"completion:ocr:{completion_id}")]
    retries = await recovery.owner.fetch(
        "SELECT job_id, traceback ->> 'exception_type' AS error FROM pgqueuer_log "
        "WHERE entrypoint = $1 AND status = 'queued' AND traceback IS NOT NULL",
        EVENT,
    )
    assert [(r["job_id"], r["error"]) for r in retries] == [
        (held["queue_job_id"], "RaiseError")
    ] * (BUDGET - 1)
    assert await _decisions(recovery, completion_id) == []

    await recovery.owner.execute("DROP TRIGGER refuse_decisions ON completions.ocr_decisions")
    result = await recovery.retry(job_id, retry_request(0))
    assert (result.outcome, result.retry_generation) == ("accepted", 1)
    await recovery.bots.until_status(job_id, "succeeded")
    done = await recovery.job(job_id)
    assert (done["queue_job_id"], done["retry_generation"], done["handler_failures"]) == (
        held["queue_job_id"],
        1,
        0,
    )
    # OCR is unavailable: the one decision sends the run to manual review.
    assert await _decisions(recovery, completion_id) == ["error"]
    assert await recovery.logical_jobs(EVENT) == [(job_id, f"completion:ocr:{completion_id}")]
