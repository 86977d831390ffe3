"""Sends replayed through the real bot worker and the API's bindings: a recorded message is
reused, a send that never began is sent, a refused destination is never sent to again, and a
send that surely never reached Discord is released and sent by the retry."""

from __future__ import annotations

import json

import pytest

from tests.bot.bot_stack import BotStack, eventually

from .probe import (
    FOLLOWUP,
    PROBE,
    SEND,
    binding,
    command,
    enqueue_probe,
    probe_destination,
)

pytestmark = pytest.mark.queue


async def test_a_recorded_message_is_reused_when_the_job_is_replayed(stack: BotStack) -> None:
    stack.recorder.command(command(FOLLOWUP), "fail:1")
    job_id = await enqueue_probe(stack.owner, 1)
    async with stack.worker(PROBE):
        await stack.until_status(job_id, "succeeded")

    sends = stack.recorder.sends(destination=probe_destination(1))
    assert len(sends) == 1
    row = await binding(stack.owner, job_id)
    assert row is not None and (row["state"], row["message_id"]) == (
        "completed",
        sends[0]["message_id"],
    )
    # The replay really ran the send again (attempt 2) and went on past it.
    assert stack.recorder.recorder.count(SEND, "done", str(job_id)) == 2
    assert stack.recorder.recorder.count(FOLLOWUP, "done", str(job_id)) == 1


async def test_a_send_that_never_began_is_sent_by_the_retry(stack: BotStack) -> None:
    # The first attempt fails at the send's own boundary, before anything is recorded.
    stack.recorder.command(command(SEND), "fail:1")
    job_id = await enqueue_probe(stack.owner, 2)
    async with stack.worker(PROBE):
        await stack.until_status(job_id, "succeeded")

    assert stack.recorder.recorder.count(SEND, "failed", str(job_id)) == 1
    sends = stack.recorder.sends(destination=probe_destination(2))
    assert [s["attempt"] for s in sends] == [2]
    row = await binding(stack.owner, job_id)
    assert row is not None and (row["state"], row["message_id"]) == (
        "completed",
        sends[0]["message_id"],
    )


async def test_a_refused_destination_settles_failed_and_a_replay_does_not_send(
    stack: BotStack,
) -> None:
    stack.recorder.command(command(SEND), "forbidden")
    stack.recorder.command(command(FOLLOWUP), "hang")
    job_id = await enqueue_probe(stack.owner, 3)
    async with stack.worker(PROBE):

        async def refused() -> bool:
            row = await binding(stack.owner, job_id)
            return row is not None and row["state"] == "failed"

        await eventually(refused, 20, "the destination to be settled as failed")
        await eventually(
            lambda: _started(stack, FOLLOWUP), 20, "the handler to go on past the refusal"
        )
        # Discord would now accept the message; the replay must not ask it again.
        stack.recorder.command(command(SEND), "complete")
        stack.recorder.command(command(FOLLOWUP), "fail:1")
        await stack.until_status(job_id, "succeeded")

    assert stack.recorder.sends(destination=probe_destination(3)) == []
    row = await binding(stack.owner, job_id)
    assert row is not None and row["state"] == "failed" and row["message_id"] is None
    assert stack.recorder.recorder.count(FOLLOWUP, "done", str(job_id)) == 1
    assert stack.recorder.recorder.count(FOLLOWUP, "failed", str(job_id)) == 1


async def test_a_send_that_never_reached_discord_is_released_and_sent_by_the_retry(
    stack: BotStack,
) -> None:
    stack.recorder.command(command(SEND), "not-sent")
    job_id = await enqueue_probe(stack.owner, 4)
    async with stack.worker(PROBE):
        await eventually(lambda: _started(stack, SEND), 20, "the first send")

        async def deferred() -> bool:
            row = await stack.owner.fetchrow(
                "SELECT q.status::text AS status, q.attempts FROM pgqueuer q "
                "JOIN jobs j ON j.queue_job_id = q.id WHERE j.id = $1",
                job_id,
            )
            return row is not None and row["status"] == "queued" and row["attempts"] >= 1

        await eventually(deferred, 20, "the job to be deferred after the refused connection")
        assert await binding(stack.owner, job_id) is None, "the intent was not released"
        stack.recorder.command(command(SEND), "complete")
        await stack.until_status(job_id, "succeeded")

    sends = stack.recorder.sends(destination=probe_destination(4))
    assert len(sends) == 1 and sends[0]["attempt"] > 1
    row = await binding(stack.owner, job_id)
    assert row is not None and (row["state"], row["message_id"]) == (
        "completed",
        sends[0]["message_id"],
    )
    # Not sent is an outage of Discord, not a failure of the job.
    failures = await stack.owner.fetchval("SELECT handler_failures FROM jobs WHERE id = $1", job_id)
    assert failures == 0
    deferrals = await stack.owner.fetch(
        "SELECT l.traceback ->> 'exception_type' AS kind FROM pgqueuer_log l "
        "JOIN jobs j ON j.queue_job_id = l.job_id "
        "WHERE j.id = $1 AND l.status = 'queued' AND l.traceback IS NOT NULL",
        job_id,
    )
    assert deferrals and {r["kind"] for r in deferrals} == {"DependencyUnavailable"}
    assert json.loads(row["detail"])["stage"] == "completed"


async def _started(stack: BotStack, effect: str) -> bool:
    return stack.recorder.recorder.count(effect, "start") >= 1
