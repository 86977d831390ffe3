"""Approve, force accept and force deny: domain mutations once each, then the thread closed."""

from __future__ import annotations

import pytest
from genji_bot.effects.port import Channel, Outgoing
from genji_bot.settings import Channels

from tests.bot.bot_stack import BotStack

from .playtest_stack import (
    VERIFIER,
    creator_ids,
    eligible_voter,
    notifications,
    open_playtest,
    produce,
    thread_ops,
    vote,
    xp_rows,
)

pytestmark = pytest.mark.queue


async def test_q09_q10_approve_replay_after_partial_success_grants_each_xp_once(
    stack: BotStack,
) -> None:
    playtest = await open_playtest(stack, co_creators=1)
    voters = [await eligible_voter(stack, playtest) for _ in range(2)]
    for voter, difficulty in zip(voters, (4.0, 6.0), strict=True):
        await vote(stack, playtest, voter, difficulty)
    approve = await produce(
        stack, "POST", f"/maps/playtests/{playtest.thread_id}/approve", verifier_id=VERIFIER
    )
    # The first attempt notifies and grants every XP, then fails before the newsfeed entry.
    stack.recorder.command("api.playtest.approve:newsfeed", "fail:1")
    async with stack.worker():
        await stack.until_status(approve, "succeeded")

    creators = await creator_ids(stack, playtest)
    assert len(creators) == 2
    for creator in creators:
        assert await xp_rows(stack, creator) == [("Map Submission", 30)]
    for voter in voters:
        assert await xp_rows(stack, voter) == [("Playtest", 35)]
    assert (
        await stack.owner.fetchval(
            "SELECT count(*) FROM public.newsfeed WHERE event_type = 'new_map' "
            "AND payload->>'code' = $1",
            playtest.code,
        )
        == 1
    )
    assert await notifications(stack, playtest.creator_id) == 1
    closes = thread_ops(stack, playtest.thread_id)
    assert closes[-1]["archived"] is True and closes[-1]["locked"] is True
    assert closes[-1]["tags"][-1] == "Complete"
    receipts = await stack.owner.fetchval(
        "SELECT count(*) FROM effect_receipts WHERE job_id = $1 AND completed_at IS NOT NULL",
        approve,
    )
    assert receipts == 1 + len(creators) + len(voters) + 1  # notification, XP, newsfeed


async def test_force_accept_rewards_closes_and_deletes_the_verification_message(
    stack: BotStack,
) -> None:
    playtest = await open_playtest(stack)
    voter = await eligible_voter(stack, playtest)
    await vote(stack, playtest, voter, 5.0)
    queued = await stack.recorder.send(
        Channel(Channels().verification_queue), Outgoing(content="verification")
    )
    bound = await stack.http.patch(
        f"/maps/playtests/{playtest.playtest_id}",
        json={"thread_id": playtest.thread_id, "verification_id": queued.message_id},
    )
    assert bound.status_code == 200, bound.text
    job = await produce(
        stack,
        "POST",
        f"/maps/playtests/{playtest.thread_id}/force-accept",
        verifier_id=VERIFIER,
        difficulty="Hard",
    )
    async with stack.worker():
        await stack.until_status(job, "succeeded")

    assert await xp_rows(stack, playtest.creator_id) == [("Map Submission", 30)]
    assert await xp_rows(stack, voter) == [("Playtest", 35)]
    assert await stack.owner.fetchval(
        "SELECT count(*) FROM public.newsfeed WHERE payload->>'code' = $1 "
        "AND event_type = 'new_map'",
        playtest.code,
    )
    assert queued.message_id not in stack.recorder.messages()
    assert thread_ops(stack, playtest.thread_id)[-1]["tags"][-1] == "Complete"


async def test_force_deny_replay_closes_again_and_notices_once(stack: BotStack) -> None:
    playtest = await open_playtest(stack)
    # The creator takes playtest updates on no Discord channel: the notice goes to the thread.
    await stack.owner.execute(
        "INSERT INTO notifications.preferences (user_id, event_type, channel, enabled) "
        "VALUES ($1, 'playtest_update', 'discord_dm', false)",
        playtest.creator_id,
    )
    job = await produce(
        stack,
        "POST",
        f"/maps/playtests/{playtest.thread_id}/force-deny",
        verifier_id=VERIFIER,
        reason="Broken checkpoints",
    )
    stack.recorder.command("api.playtest.force_deny:thread:close", "fail:1")
    async with stack.worker():
        await stack.until_status(job, "succeeded")

    assert await notifications(stack, playtest.creator_id) == 1
    notices = stack.recorder.sends(destination=f"channel:{playtest.thread_id}", job_id=job)
    assert len(notices) == 1
    closes = [op for op in thread_ops(stack, playtest.thread_id) if op["job_id"] == job]
    assert len(closes) == 1
    assert closes[0]["archived"] is True and closes[0]["tags"][-1] == "Cancelled"
    assert await xp_rows(stack, playtest.creator_id) == []
