"""Q18: the API process is SIGKILLed while the bot worker exhausts a job's retries and holds it.
The worker writes every failure through its own queue login, so the restarted API reads the held
failure from durable state (nothing waited for a status report to the API), and the operator's
retry through the restarted API resumes the job.

The job: a faster run supersedes a pending one, and the bot removes the old run's review card
(api.completion.verification.delete), which needs nothing from the API, so each of its failures
happens while the API is down.
"""

from __future__ import annotations

from uuid import UUID

import httpx
import pytest

from tests.bot.bot_stack import eventually
from tests.support import seed, seed_completions

from .recovery_stack import BUDGET, RecoveryStack, retry_request

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

EVENT = "api.completion.verification.delete"
DELETE = "delete:verification"
STEER = f"{EVENT}:{DELETE}"
OLD_CARD = 10**18 + 4242


async def _supersede_a_pending_run(recovery: RecoveryStack) -> UUID:
    """POST /completions/ with a faster run; returns the card removal job it enqueued."""
    owner = recovery.owner
    user_id = await seed.user(owner)
    map_id, code = await seed.game_map(owner)
    await seed_completions.pending_completion(
        owner, map_id, user_id, time=100.0, verification_id=OLD_CARD
    )
    response = await recovery.http.post(
        "/completions/",
        json={
            "code": code,
            "user_id": user_id,
            "time": 50.0,
            "screenshot": seed_completions.SCREENSHOT,
            "video": seed_completions.VIDEO,
        },
    )
    assert response.status_code == 201, response.text
    ((job_id, _),) = await recovery.logical_jobs(EVENT)
    return job_id


async def _only_it_is_left(recovery: RecoveryStack, job_id: UUID) -> bool:
    """Every other job has finished: none of them touches the API once it is down."""
    busy = await recovery.owner.fetchval(
        "SELECT count(*) FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id "
        "WHERE j.id <> $1 AND q.status IN ('queued', 'picked')",
        job_id,
    )
    return busy == 0


async def test_q18_a_failure_held_while_the_api_is_down_is_read_by_the_restarted_api(
    recovery: RecoveryStack,
) -> None:
    recorder = recovery.bots.recorder
    recorder.command(STEER, "hang")
    job_id = await _supersede_a_pending_run(recovery)

    async def running() -> bool:
        return recorder.recorder.count(DELETE, "start") == 1

    await eventually(running, 20, "the card removal to start")
    await eventually(lambda: _only_it_is_left(recovery, job_id), 20, "the other jobs to finish")

    recovery.api.kill()
    with pytest.raises(httpx.TransportError):
        await recovery.operator.get(f"/internal/jobs/{job_id}")
    recorder.command(STEER, "fail")
    await recovery.until_held(job_id, 0)

    held = await recovery.job(job_id)
    assert recovery.api.process is not None and recovery.api.process.poll() is not None, (
        "the API stayed down until the job was held"
    )
    assert recorder.recorder.count(DELETE, "failed") == BUDGET
    assert (held["handler_failures"], held["error_code"]) == (BUDGET, "EffectFailed")
    assert f"{DELETE} failed" in held["error_msg"]

    await recovery.start_api()
    status = await recovery.public_status(job_id)
    assert status == {
        "id": str(job_id),
        "status": "failed",
        "error_code": "EffectFailed",
        "error_msg": held["error_msg"],
    }

    recorder.command(STEER, "complete")
    result = await recovery.retry(job_id, retry_request(0))
    assert (result.outcome, result.retry_generation) == ("accepted", 1)
    await recovery.bots.until_status(job_id, "succeeded")
    done = await recovery.job(job_id)
    assert (done["queue_job_id"], done["event_key"]) == (held["queue_job_id"], held["event_key"])
    assert (done["retry_generation"], done["handler_failures"]) == (1, 0)
    assert recorder.recorder.count(DELETE, "done") == 1
    assert await recovery.logical_jobs(EVENT) == [(job_id, held["event_key"])]
