"""Q10: a verdict job that fails after some of its effects is retried; every mutation and send
of the first attempt is reused, none repeated."""

from __future__ import annotations

import pytest

from tests.bot import completion_flow as flow
from tests.bot.bot_stack import BotStack

pytestmark = pytest.mark.queue

VERIFICATION = "api.completion.verification"


@pytest.mark.parametrize(
    "effect",
    [
        pytest.param("notification:mastery", id="Q10-fail-mastery-notice"),
        pytest.param("delete:verification", id="Q10-fail-cleanup"),
        pytest.param("roles:skill", id="Q10-fail-roles"),
    ],
)
async def test_q10_a_retried_verdict_repeats_no_effect(stack: BotStack, effect: str) -> None:
    run = await flow.player_on_new_map(stack)
    submitted = await flow.submit(stack, run, 100.0)
    stack.recorder.command(f"{VERIFICATION}:{effect}", "fail:1")
    async with stack.worker():
        await stack.until_status(submitted["job_status"]["id"], "succeeded")
        job_id = await flow.verdict(stack, submitted["completion_id"], run, verified=True)
        await stack.until_status(job_id, "succeeded")
        await stack.until_quiet()

    assert stack.recorder.recorder.count(effect, "failed", job_id=job_id) == 1
    assert await flow.ledgers(stack, run) == flow.first_world_record(run)
    assert await flow.receipts(stack, job_id) == flow.VERIFIED_RECEIPTS
    assert flow.sends_of(stack, job_id) == flow.VERIFIED_SENDS
    row = await flow.completion_row(stack, submitted["completion_id"])
    assert [m["message_id"] for m in stack.recorder.sends(destination=flow.COMPLETIONS)] == [
        row["message_id"]
    ]


async def test_q10_world_record_xp_is_granted_once_per_map_and_player(stack: BotStack) -> None:
    """A faster world record by the same player, and a verdict given again, earn no second
    world-record XP; the first run's job replays after a failure in between."""
    run = await flow.player_on_new_map(stack)
    first = await flow.pending_run(stack, run, 100.0)
    stack.recorder.command(f"{VERIFICATION}:mastery", "fail:1")
    async with stack.worker():
        await stack.until_status(await flow.verdict(stack, first, run, verified=True), "succeeded")
        await stack.until_status(
            await flow.verdict(stack, first, run, verified=False, reason="recheck"), "succeeded"
        )
        again = await flow.verdict(stack, first, run, verified=True)
        await stack.until_status(again, "succeeded")
        faster = await flow.pending_run(stack, run, 90.0)
        faster_job = await flow.verdict(stack, faster, run, verified=True)
        await stack.until_status(faster_job, "succeeded")
        await stack.until_quiet()

    xp = (await flow.ledgers(stack, run))["xp"]
    assert [xp_type for xp_type, _ in xp] == ["World Record"]
    assert xp == [("World Record", f"world-record:{run.map_id}:{run.user_id}")]
    for job_id in (again, faster_job):
        granted = await stack.owner.fetchval(
            "SELECT (result->>'granted')::boolean FROM effect_receipts "
            "WHERE job_id = $1 AND effect_key = 'xp:verification'",
            job_id,
        )
        assert granted is False
    assert (
        await stack.owner.fetchval(
            "SELECT count(*) FROM core.completions WHERE user_id = $1 AND wr_xp_check", run.user_id
        )
        == 1
    )
