"""Q19 end to end: an XP grant submitted through the API, its bot job run by the real recorded
bot process, failed after its first completed effect until its retries are exhausted and held;
every service restarted; the operator's retry through the API with the saved UUID and generation
resumes the same job and the completed effect is not repeated.

Variants: duplicate and concurrent retry requests, a retry whose answer is lost (Q20), and a
second terminal failure after the operator's retry (Q24).
"""

from __future__ import annotations

import asyncio
from uuid import UUID

import pytest
from genji_sdk.recovery import RecoveryResult, RetryRequest

from .recovery_stack import BUDGET, RecoveryStack, retry_request
from .xp_grant import (
    AMOUNT,
    FAIL_SEND,
    NOTIFY,
    SEND,
    START_XP,
    Grant,
    grant_rows,
    grant_xp,
    sends,
    xp_channel,
    xp_gain_notifications,
)

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

FAIL_BEYOND_BUDGET = f"fail:{BUDGET * 10}"


async def _assert_held(recovery: RecoveryStack, grant: Grant, generation: int) -> None:
    """Held in `generation` with its budget spent, the notification done once, nothing sent."""
    row = await recovery.job(grant.job_id)
    assert (row["queue_status"], row["retry_generation"], row["handler_failures"]) == (
        "failed",
        generation,
        BUDGET,
    )
    assert row["held_at"] is not None
    assert row["error_code"] == "EffectFailed" and f"{SEND} failed" in row["error_msg"]
    status = await recovery.public_status(grant.job_id)
    assert (status["status"], status["error_code"]) == ("failed", "EffectFailed")
    assert status["error_msg"] == row["error_msg"]
    assert await recovery.receipts(grant.job_id) == {NOTIFY: True}
    bindings = await recovery.owner.fetchval(
        "SELECT count(*) FROM effect_bindings WHERE job_id = $1", UUID(grant.job_id)
    )
    assert bindings == 0, "the failing send never began"
    assert await xp_gain_notifications(recovery, grant) == 1
    assert sends(recovery, grant) == {}
    assert await recovery.logical_jobs("api.xp.grant") == [
        (UUID(grant.job_id), f"xp:grant:{grant.grant_id}")
    ]


async def _single(recovery: RecoveryStack, grant: Grant) -> int:
    result = await recovery.retry(grant.job_id, retry_request(0))
    assert (result.outcome, result.retry_generation, result.state) == ("accepted", 1, "pending")
    assert result.job_id == UUID(grant.job_id) and result.action_id is not None
    return 1


async def _duplicates(recovery: RecoveryStack, grant: Grant) -> int:
    """The same key twice and another key, at once: one requeue; the others resolve to it."""
    twice = retry_request(0, "retry-twice")
    requests = [twice, twice, retry_request(0, "retry-other")]
    results: list[RecoveryResult] = list(
        await asyncio.gather(*(recovery.retry(grant.job_id, r) for r in requests))
    )
    accepted = [
        (request, result)
        for request, result in zip(requests, results, strict=True)
        if result.outcome == "accepted"
    ]
    assert len(accepted) == 1, [r.outcome for r in results]
    (winner, first) = accepted[0]
    for request, result in zip(requests, results, strict=True):
        if result is first:
            continue
        if request.idempotency_key == winner.idempotency_key:
            assert (result.outcome, result.recorded_outcome, result.action_id) == (
                "duplicate",
                "accepted",
                first.action_id,
            )
        else:
            # Its generation is gone (or the requeued job already finished).
            assert result.outcome in ("stale_generation", "succeeded"), result
        assert result.retry_generation == 1
    await _assert_duplicate_of(recovery, grant, winner, first)
    return 1


async def _lost_response(recovery: RecoveryStack, grant: Grant) -> int:
    """The requester vanishes after its retry committed, its answer unread; the job proceeds
    without it, and asking again with the same key finds what the first request did."""
    request = retry_request(0, "retry-lost-answer")
    connection, action = await recovery.retry_unanswered(grant.job_id, request)
    connection.transport.abort()
    assert action["outcome"] == "accepted"
    await recovery.bots.until_status(grant.job_id, "succeeded")
    again = await recovery.retry(grant.job_id, request)
    assert (again.outcome, again.recorded_outcome, again.action_id, again.retry_generation) == (
        "duplicate",
        "accepted",
        action["id"],
        1,
    )
    return 1


async def _fails_again(recovery: RecoveryStack, grant: Grant) -> int:
    """The retried generation fails through its whole budget too: held again under generation
    1, where a request for generation 0 is stale and one for generation 1 is accepted."""
    recovery.bots.recorder.command(FAIL_SEND, FAIL_BEYOND_BUDGET)
    first = await recovery.retry(grant.job_id, retry_request(0))
    assert (first.outcome, first.retry_generation) == ("accepted", 1)
    await recovery.until_held(grant.job_id, 1)
    await _assert_held(recovery, grant, 1)
    assert len(await recovery.actions(grant.job_id)) == 1

    stale = await recovery.retry(grant.job_id, retry_request(0))
    assert (stale.outcome, stale.retry_generation, stale.state, stale.action_id) == (
        "stale_generation",
        1,
        "held",
        None,
    )
    await _assert_held(recovery, grant, 1)
    assert len(await recovery.actions(grant.job_id)) == 1

    recovery.bots.recorder.command(FAIL_SEND, "complete")
    second = await recovery.retry(grant.job_id, retry_request(1))
    assert (second.outcome, second.retry_generation) == ("accepted", 2)
    return 2


async def _assert_duplicate_of(
    recovery: RecoveryStack, grant: Grant, request: RetryRequest, first: RecoveryResult
) -> None:
    again = await recovery.retry(grant.job_id, request)
    assert (again.outcome, again.recorded_outcome, again.action_id) == (
        "duplicate",
        "accepted",
        first.action_id,
    )


VARIANTS = {
    "Q19-one-retry": _single,
    "Q19-Q20-duplicate-and-concurrent-retries": _duplicates,
    "Q19-Q20-Q23-lost-retry-response": _lost_response,
    "Q19-Q24-fails-again-after-the-retry": _fails_again,
}


@pytest.mark.parametrize("variant", list(VARIANTS), ids=list(VARIANTS))
async def test_q19_end_to_end_held_after_one_effect_restarted_and_retried_by_the_operator(
    recovery: RecoveryStack, variant: str
) -> None:
    recovery.bots.recorder.command(FAIL_SEND, FAIL_BEYOND_BUDGET)
    grant = await grant_xp(recovery)
    await recovery.until_held(grant.job_id, 0)
    await _assert_held(recovery, grant, 0)
    saved = await recovery.job(grant.job_id)

    await recovery.restart_all()  # every service restarts before the operator acts
    await _assert_held(recovery, grant, 0)

    if variant != "Q19-Q24-fails-again-after-the-retry":
        recovery.bots.recorder.command(FAIL_SEND, "complete")
    generation = await VARIANTS[variant](recovery, grant)

    await recovery.bots.until_status(grant.job_id, "succeeded")
    done = await recovery.job(grant.job_id)
    for same in ("id", "action", "event_key", "entity_key", "queue_job_id"):
        assert done[same] == saved[same], same
    assert (done["retry_generation"], done["handler_failures"]) == (generation, 0)
    assert await recovery.logical_jobs("api.xp.grant") == [(UUID(grant.job_id), saved["event_key"])]
    assert [a["outcome"] for a in await recovery.actions(grant.job_id)] == ["accepted"] * (
        generation
    )
    # One business result: one grant, one notification, one post in the XP channel.
    assert await grant_rows(recovery, grant) == (1, START_XP + AMOUNT)
    assert await xp_gain_notifications(recovery, grant) == 1
    assert sends(recovery, grant) == {(SEND, xp_channel(recovery)): 1}
    assert await recovery.receipts(grant.job_id) == {NOTIFY: True}
