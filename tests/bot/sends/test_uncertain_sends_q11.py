"""Q11: a send whose outcome is unknown is never blindly repeated. Within the nonce window it is
repeated with its binding's nonce, which Discord (here the recorder) answers with the message
already posted; past it (a window of 0 here) it is reconciled from the destination's recent
history when exactly one message matches, and the job is held as uncertain, naming the effect,
its destination and the last stage, when none or several do."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from uuid import UUID

import pytest

from tests.bot.bot_stack import BotProcess, BotStack, eventually

from .probe import (
    FOLLOWUP,
    PROBE,
    SEND,
    binding,
    command,
    enqueue_probe,
    held_error,
    probe_destination,
    probe_message,
    probe_target,
)

pytestmark = pytest.mark.queue

PROBE_BOT = "tests.bot.sends.probe_bot"


async def _assert_held_uncertain(
    stack: BotStack, job_id: UUID, destination: str, stage: str
) -> None:
    response = await stack.http.get(f"/internal/jobs/{job_id}")
    status = response.json()
    assert (status["status"], status["error_code"]) == ("failed", "UncertainEffect")
    for named in (repr(SEND), destination, f"last stage: {stage}"):
        assert named in status["error_msg"], (named, status["error_msg"])
    error = await held_error(stack.owner, job_id)
    assert (error["error_code"], error["handler_failures"]) == ("UncertainEffect", 0)
    queue_status = await stack.owner.fetchval(
        "SELECT q.status::text FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id "
        "WHERE j.id = $1",
        job_id,
    )
    assert queue_status == "failed", "an uncertain job stays held for the operator"
    row = await binding(stack.owner, job_id)
    assert row is not None and row["state"] == "uncertain" and row["message_id"] is None


async def test_q11_a_lost_reply_is_settled_by_repeating_the_send_with_its_nonce(
    stack: BotStack,
) -> None:
    stack.recorder.command(command(SEND), "lose-reply")
    job_id = await enqueue_probe(stack.owner, 12)
    async with stack.worker(PROBE):
        assert await stack.until_status(job_id, "succeeded", "failed") == "succeeded"

    delivered = stack.recorder.sends(destination=probe_destination(12))
    assert len(delivered) == 1, delivered
    assert len(stack.recorder.operations("deduplicated")) == 1
    row = await binding(stack.owner, job_id)
    assert row is not None and (row["state"], row["message_id"]) == (
        "completed",
        delivered[0]["message_id"],
    )


@pytest.mark.parametrize("history", ["one-match-adopted", "two-matches-held"], ids=str)
async def test_q11_a_lost_reply_past_the_nonce_window_is_reconciled_from_history(
    stack: BotStack, history: str
) -> None:
    stack.recorder.nonce_window = timedelta(0)
    newsfeed_id = 13 if history == "one-match-adopted" else 11
    destination = probe_destination(newsfeed_id)
    if history == "two-matches-held":
        # The same message is already there, as if sent just before: history cannot tell.
        await stack.recorder.send(probe_target(newsfeed_id), probe_message(newsfeed_id))
    stack.recorder.command(command(SEND), "lose-reply")
    job_id = await enqueue_probe(stack.owner, newsfeed_id)
    async with stack.worker(PROBE):
        outcome = await stack.until_status(job_id, "succeeded", "failed")
        await stack.until_quiet()

    delivered = stack.recorder.sends(destination=destination)
    assert len(delivered) == (1 if history == "one-match-adopted" else 2), delivered
    assert stack.recorder.recorder.count(SEND, "start", str(job_id)) == 1
    if history == "one-match-adopted":
        assert outcome == "succeeded"
        row = await binding(stack.owner, job_id)
        assert row is not None and row["message_id"] == delivered[0]["message_id"]
    else:
        # Held at once: no retry is scheduled, so the worker goes quiet with the job held.
        assert outcome == "failed"
        await _assert_held_uncertain(stack, job_id, destination, "sent, reply lost")
        assert stack.recorder.recorder.count(FOLLOWUP, "start", str(job_id)) == 0


@pytest.mark.queue_fault
@pytest.mark.parametrize(
    "history",
    ["one-match-adopted", "no-match-held", "two-matches-held", "repeated-by-nonce"],
    ids=str,
)
async def test_q11_a_send_killed_before_its_id_was_recorded_is_reconciled_from_history(
    stack: BotStack, tmp_path: Path, history: str
) -> None:
    # A crashed owner's claim goes stale quickly, so the restarted bot reclaims the job.
    await stack.owner.execute("UPDATE queue_settings SET stale_heartbeat = interval '1.5 s'")
    cases = ["one-match-adopted", "no-match-held", "two-matches-held", "repeated-by-nonce"]
    newsfeed_id = 20 + cases.index(history)
    destination = probe_destination(newsfeed_id)
    # Past the nonce window only history can tell; within it the repeat settles it.
    window = {"DISCORD_NONCE_WINDOW_SECONDS": "60" if history == "repeated-by-nonce" else "0"}
    first = BotProcess.start(stack, tmp_path / "first.log", window, module=PROBE_BOT)
    second: BotProcess | None = None
    try:
        stack.recorder.command(command(SEND), "crash-mid", pid=first.pid)
        job_id = await enqueue_probe(stack.owner, newsfeed_id)
        await eventually(
            lambda: _exited(first), 30, "the bot to be killed in the middle of the send"
        )
        assert first.process.returncode == -9, first.log()
        delivered = stack.recorder.sends(destination=destination)
        assert len(delivered) == 1
        row = await binding(stack.owner, job_id)
        assert row is not None and row["state"] == "intended" and row["message_id"] is None

        if history == "no-match-held":
            await stack.recorder.delete(delivered[0]["channel_id"], delivered[0]["message_id"])
        if history == "two-matches-held":
            await stack.recorder.send(probe_target(newsfeed_id), probe_message(newsfeed_id))
        sends_before = len(stack.recorder.sends(destination=destination))

        second = BotProcess.start(stack, tmp_path / "second.log", window, module=PROBE_BOT)
        outcome = await stack.until_status(job_id, "succeeded", "failed", deadline=40)
    finally:
        first.kill()
        if second is not None:
            second.stop()

    # The replay never sends again, whatever the history held.
    assert len(stack.recorder.sends(destination=destination)) == sends_before
    repeats = len(stack.recorder.operations("deduplicated"))
    assert repeats == (1 if history == "repeated-by-nonce" else 0)
    if history in ("one-match-adopted", "repeated-by-nonce"):
        assert outcome == "succeeded"
        row = await binding(stack.owner, job_id)
        assert row is not None and (row["state"], row["message_id"]) == (
            "completed",
            delivered[0]["message_id"],
        )
        assert json.loads(row["detail"])["stage"] == "completed"
        assert stack.recorder.recorder.count(FOLLOWUP, "done", str(job_id)) == 1
    else:
        assert outcome == "failed"
        await _assert_held_uncertain(stack, job_id, destination, "intended")
        assert stack.recorder.recorder.count(FOLLOWUP, "start", str(job_id)) == 0


async def _exited(process: BotProcess) -> bool:
    return process.process.poll() is not None
