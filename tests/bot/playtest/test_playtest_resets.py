"""api.playtest.reset: each reset its own work, a retransmission once, a superseded one never."""

from __future__ import annotations

from typing import Any

import pytest
from genji_api.playtests.transitions import enqueue_transition
from genji_sdk.payloads import PlaytestResetEvent

from tests.bot.bot_stack import BotStack

from .playtest_stack import (
    VERIFIER,
    OpenPlaytest,
    edits_of,
    eligible_voter,
    notifications,
    open_playtest,
    produce,
    vote,
)

pytestmark = pytest.mark.queue

RESET: dict[str, Any] = {
    "verifier_id": VERIFIER,
    "reason": "Checkpoint skip fixed",
    "remove_votes": True,
    "remove_completions": False,
}


async def _reset(stack: BotStack, playtest: OpenPlaytest) -> str:
    return await produce(stack, "POST", f"/maps/playtests/{playtest.thread_id}/reset", **RESET)


async def _notified(stack: BotStack, job_id: str) -> int:
    count: int = await stack.owner.fetchval(
        "SELECT count(*) FROM effect_receipts WHERE job_id = $1 "
        "AND effect_key = 'notification:creator' AND completed_at IS NOT NULL",
        job_id,
    )
    return count


async def test_q09_two_resets_are_both_delivered_and_a_retransmitted_reset_once(
    stack: BotStack,
) -> None:
    playtest = await open_playtest(stack)
    await vote(stack, playtest, await eligible_voter(stack, playtest), 5.0)
    # Each reset's first attempt notifies the creator, then fails before the refresh.
    stack.recorder.command("api.playtest.reset:thread:view", "fail:1")
    jobs = []
    async with stack.worker():
        for _ in range(2):
            jobs.append(await _reset(stack, playtest))
            await stack.until_status(jobs[-1], "succeeded")
        assert jobs[0] != jobs[1]

        # The first reset's transition enqueued again is its own, finished job: no new work.
        transition = await stack.owner.fetchval(
            "SELECT min(id) FROM playtests.transitions WHERE playtest_id = $1 AND kind = 'reset'",
            playtest.playtest_id,
        )
        async with stack.owner.transaction():
            again = await enqueue_transition(
                stack.owner,
                kind="reset",
                transition_id=transition,
                playtest_id=playtest.playtest_id,
                payload=PlaytestResetEvent(
                    transition_id=transition, thread_id=playtest.thread_id, **RESET
                ),
                trace=None,
            )
        assert str(again.id) == jobs[0]
        await stack.until_quiet()

    assert await notifications(stack, playtest.creator_id) == 2
    for job_id in jobs:
        assert await _notified(stack, job_id) == 1
        assert len(edits_of(stack, playtest.thread_id, job_id)) == 1
    generation = await stack.owner.fetchval(
        "SELECT reset_generation FROM playtests.meta WHERE id = $1", playtest.playtest_id
    )
    assert generation == 2


async def test_q09_an_old_reset_is_not_applied_to_a_newer_generation_or_closed_playtest(
    stack: BotStack,
) -> None:
    playtest = await open_playtest(stack)
    # Two resets while the bot is away: the first is superseded by the second's generation.
    old, new = await _reset(stack, playtest), await _reset(stack, playtest)
    closed = await open_playtest(stack)
    # A reset, then the playtest is closed: the reset no longer applies to it.
    stale = await _reset(stack, closed)
    deny = await produce(
        stack,
        "POST",
        f"/maps/playtests/{closed.thread_id}/force-deny",
        verifier_id=VERIFIER,
        reason="Broken checkpoints",
    )
    async with stack.worker():
        for job_id in (old, new, stale, deny):
            await stack.until_status(job_id, "succeeded")

    assert await _notified(stack, old) == 0
    assert edits_of(stack, playtest.thread_id, old) == []
    assert await _notified(stack, new) == 1
    assert len(edits_of(stack, playtest.thread_id, new)) == 1
    assert await notifications(stack, playtest.creator_id) == 1

    assert await _notified(stack, stale) == 0
    assert edits_of(stack, closed.thread_id, stale) == []
    assert await notifications(stack, closed.creator_id) == 1  # the denial's
