"""Vote refreshes render the votes the API holds now, and post each vote's message once."""

from __future__ import annotations

import pytest

from tests.bot.bot_stack import BotStack

from .playtest_stack import (
    current_view_fingerprint,
    edits_of,
    eligible_voter,
    open_playtest,
    produce,
    vote,
)

pytestmark = pytest.mark.queue


async def test_vote_jobs_render_current_votes_and_post_each_message_once(
    stack: BotStack,
) -> None:
    playtest = await open_playtest(stack)
    first, second = await eligible_voter(stack, playtest), await eligible_voter(stack, playtest)
    # Produced while the bot is away: the first job's payload says 3.0, the vote is now 8.0.
    jobs = [
        await vote(stack, playtest, first, 3.0),
        await vote(stack, playtest, second, 6.0),
        await vote(stack, playtest, first, 8.0),
        await produce(stack, "DELETE", f"/maps/playtests/{playtest.thread_id}/vote/{second}"),
    ]
    # Each job's first attempt posts its message, then fails before refreshing the view.
    stack.recorder.command("*:thread:view", "fail:1")
    async with stack.worker():
        for job_id in jobs:
            await stack.until_status(job_id, "succeeded")

    thread = f"channel:{playtest.thread_id}"
    for job_id in jobs:
        assert len(stack.recorder.sends(destination=thread, job_id=job_id)) == 1
        edits = edits_of(stack, playtest.thread_id, job_id)
        assert len(edits) == 1
        assert edits[0]["fingerprint"] == await current_view_fingerprint(stack, playtest)
    bound = await stack.owner.fetch(
        "SELECT effect_key FROM effect_bindings WHERE job_id = ANY($1::uuid[]) "
        "AND state = 'completed'",
        jobs,
    )
    transitions = await stack.owner.fetch(
        "SELECT id FROM playtests.transitions WHERE playtest_id = $1 ORDER BY id",
        playtest.playtest_id,
    )
    assert sorted(b["effect_key"] for b in bound) == sorted(
        f"thread:vote:{t['id']}" for t in transitions
    )


async def test_the_creators_are_told_once_when_the_votes_first_reach_the_finalize_count(
    stack: BotStack,
) -> None:
    playtest = await open_playtest(stack)
    voters = [await eligible_voter(stack, playtest) for _ in range(6)]
    jobs = [await vote(stack, playtest, voter, 5.0) for voter in voters[:5]]
    # The count drops and is reached again: no second mention.
    jobs.append(
        await produce(stack, "DELETE", f"/maps/playtests/{playtest.thread_id}/vote/{voters[0]}")
    )
    jobs.append(await vote(stack, playtest, voters[5], 6.0))
    stack.recorder.command("*:thread:view", "fail:1")
    async with stack.worker():
        for job_id in jobs:
            await stack.until_status(job_id, "succeeded")

    mentions = [
        e
        for e in stack.recorder.sends(destination=f"channel:{playtest.thread_id}")
        if e["effect"].startswith("thread:finalizable:")
    ]
    assert [e["job_id"] for e in mentions] == [jobs[4]]
