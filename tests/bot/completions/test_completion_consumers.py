"""Each completion consumer, produced through the API's routes, run by the bot's worker."""

from __future__ import annotations

import pytest
from genji_api.queue.enqueue import enqueue_job
from genji_bot.settings import SkillRoles
from genji_sdk.payloads import ExtractedResult, FailedAutoverifyEvent

from tests.bot import completion_flow as flow
from tests.bot.bot_stack import BotStack
from tests.support import seed_completions as sc

pytestmark = pytest.mark.queue


async def test_a_submission_gets_one_review_card_whose_id_the_completion_holds(
    stack: BotStack,
) -> None:
    run = await flow.player_on_new_map(stack)
    submitted = await flow.submit(stack, run, 100.0)
    job_id = submitted["job_status"]["id"]
    async with stack.worker():
        await stack.until_status(job_id, "succeeded")
    cards = stack.recorder.sends(destination=flow.VERIFICATION_QUEUE)
    assert len(cards) == 1
    row = await flow.completion_row(stack, submitted["completion_id"])
    assert row["verification_id"] == cards[0]["message_id"]
    assert await flow.bindings(stack, job_id) == {
        f"card:verification@{flow.VERIFICATION_QUEUE}": "completed"
    }


async def test_a_verified_world_record_runs_the_whole_workflow_once(stack: BotStack) -> None:
    run = await flow.player_on_new_map(stack)
    submitted = await flow.submit(stack, run, 100.0)
    completion_id = submitted["completion_id"]
    async with stack.worker():
        await stack.until_status(submitted["job_status"]["id"], "succeeded")
        card_id = (await flow.completion_row(stack, completion_id))["verification_id"]
        job_id = await flow.verdict(stack, completion_id, run, verified=True)
        await stack.until_status(job_id, "succeeded")
        ledgers = await flow.ledgers(stack, run)

    row = await flow.completion_row(stack, completion_id)
    announced = stack.recorder.sends(destination=flow.COMPLETIONS)
    assert [a["message_id"] for a in announced] == [row["message_id"]]
    assert row["wr_xp_check"] is True
    assert ledgers == flow.first_world_record(run)
    assert await flow.receipts(stack, job_id) == flow.VERIFIED_RECEIPTS
    assert flow.sends_of(stack, job_id) == flow.VERIFIED_SENDS
    assert card_id not in stack.recorder.messages()
    assert stack.recorder.roles_of(run.user_id) == {SkillRoles().pro}


async def test_a_rejection_notifies_with_the_reason_and_removes_the_card(stack: BotStack) -> None:
    run = await flow.player_on_new_map(stack)
    submitted = await flow.submit(stack, run, 100.0)
    completion_id = submitted["completion_id"]
    async with stack.worker():
        await stack.until_status(submitted["job_status"]["id"], "succeeded")
        card_id = (await flow.completion_row(stack, completion_id))["verification_id"]
        job_id = await flow.verdict(stack, completion_id, run, verified=False, reason="No HUD")
        await stack.until_status(job_id, "succeeded")
    reason = await stack.owner.fetchval(
        "SELECT metadata->>'reason' FROM notifications.events "
        "WHERE user_id = $1 AND event_type = 'verification_rejected'",
        run.user_id,
    )
    assert reason == "No HUD"
    assert await flow.receipts(stack, job_id) == {"notification:verification": 1}
    assert card_id not in stack.recorder.messages()
    assert stack.recorder.sends(destination=flow.COMPLETIONS) == []
    # No verified run: the member holds the unranked role and nothing was announced for it.
    assert stack.recorder.roles_of(run.user_id) == {SkillRoles().ninja}


async def test_a_stale_verdict_applies_nothing(stack: BotStack) -> None:
    run = await flow.player_on_new_map(stack)
    completion_id = await flow.pending_run(stack, run)
    verify_job = await flow.verdict(stack, completion_id, run, verified=True)
    reject_job = await flow.verdict(stack, completion_id, run, verified=False, reason="late")
    async with stack.worker():
        await stack.until_status(verify_job, "succeeded")
        await stack.until_status(reject_job, "succeeded")
        await stack.until_quiet()
    assert await flow.receipts(stack, verify_job) == {}
    assert flow.sends_of(stack, verify_job) == {}
    assert (await flow.ledgers(stack, run))["xp"] == []


async def test_the_tenth_upvote_refreshes_the_count_and_forwards_once(stack: BotStack) -> None:
    run = await flow.player_on_new_map(stack)
    completion_id = await flow.pending_run(stack, run)
    async with stack.worker():
        await stack.until_status(
            await flow.verdict(stack, completion_id, run, verified=True), "succeeded"
        )
        message_id = (await flow.completion_row(stack, completion_id))["message_id"]
        await sc.upvotes(stack.owner, message_id, 9)
        voter = await sc.seed.user(stack.owner)
        response = await stack.http.post(
            "/completions/upvoting", json={"user_id": voter, "message_id": message_id}
        )
        assert response.json()["upvotes"] == 10
        job_id = response.json()["job_status"]["id"]
        await stack.until_status(job_id, "succeeded")
    shown = stack.recorder.messages()[message_id]["message"]["buttons"][0]["label"]
    assert shown == "10"
    forwards = stack.recorder.sends(job_id=job_id)
    assert [f["effect"] for f in forwards] == ["forward:upvotes:10"]
    assert forwards[0]["target"]["source_message_id"] == message_id


async def test_a_faster_run_removes_the_card_of_the_run_it_supersedes(stack: BotStack) -> None:
    run = await flow.player_on_new_map(stack)
    first = await flow.submit(stack, run, 100.0)
    async with stack.worker():
        await stack.until_status(first["job_status"]["id"], "succeeded")
        old_card = (await flow.completion_row(stack, first["completion_id"]))["verification_id"]
        faster = await flow.submit(stack, run, 90.0)
        await stack.until_status(faster["job_status"]["id"], "succeeded")
        (delete_job,) = await stack.jobs("api.completion.verification.delete")
        await stack.until_status(delete_job["id"], "succeeded")
    live = stack.recorder.messages()
    new_card = (await flow.completion_row(stack, faster["completion_id"]))["verification_id"]
    assert old_card not in live
    assert new_card in live


async def test_a_superseded_submission_gets_no_card(stack: BotStack) -> None:
    run = await flow.player_on_new_map(stack)
    first = await flow.submit(stack, run, 100.0)
    faster = await flow.submit(stack, run, 90.0)
    async with stack.worker():
        await stack.until_status(first["job_status"]["id"], "succeeded")
        await stack.until_status(faster["job_status"]["id"], "succeeded")
    assert (await flow.completion_row(stack, first["completion_id"]))["verification_id"] is None
    cards = stack.recorder.sends(destination=flow.VERIFICATION_QUEUE)
    assert len(cards) == 1
    assert cards[0]["job_id"] == faster["job_status"]["id"]


async def test_a_failed_auto_verification_posts_one_staff_notice(stack: BotStack) -> None:
    run = await flow.player_on_new_map(stack)
    completion_id = await flow.pending_run(stack, run)
    event = FailedAutoverifyEvent(
        completion_id=completion_id,
        submitted_code=run.code,
        submitted_time=100.0,
        submitted_user_names=["PLAYER"],
        user_id=run.user_id,
        extracted=ExtractedResult(name="SOMEONE", time=100.0, code=run.code),
        code_match=True,
        time_match=True,
        user_match=False,
        screenshot=sc.SCREENSHOT,
    )
    async with stack.owner.transaction():
        job = await enqueue_job(
            stack.owner,
            event_name="api.completion.autoverification.failed",
            payload=event,
            event_key=f"completion:autoverification-failed:{completion_id}",
            entity_key=None,
        )
    async with stack.worker():
        await stack.until_status(job.id, "succeeded")
    notices = stack.recorder.sends(destination=flow.JOB_ALERTS)
    assert [n["effect"] for n in notices] == ["notice:autoverification"]
