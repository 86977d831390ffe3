"""api.playtest.create: one forum thread, bound to the playtest with its send, then the rest."""

from __future__ import annotations

import pytest

from tests.bot.bot_stack import BotStack

from .playtest_stack import FORUM, current_view_fingerprint, edits_of, submit_map

pytestmark = pytest.mark.queue


async def test_create_replay_reuses_the_thread_and_resumes_the_rest(stack: BotStack) -> None:
    submitted = await submit_map(stack)
    # The first attempt creates the thread, then fails before unhiding the map.
    stack.recorder.command("api.playtest.create:map:unhide", "fail:1")
    async with stack.worker():
        await stack.until_status(submitted.create_job, "succeeded")

    threads = stack.recorder.sends(destination=FORUM, job_id=submitted.create_job)
    assert len(threads) == 1
    thread_id = threads[0]["thread_id"]
    meta = await stack.owner.fetchrow(
        "SELECT p.thread_id, m.hidden FROM playtests.meta p JOIN core.maps m ON m.id = p.map_id "
        "WHERE p.id = $1",
        submitted.playtest_id,
    )
    assert meta["thread_id"] == thread_id
    assert meta["hidden"] is False
    bindings = await stack.owner.fetch(
        "SELECT effect_key, state, thread_id FROM effect_bindings WHERE job_id = $1 "
        "ORDER BY effect_key",
        submitted.create_job,
    )
    assert [(b["effect_key"], b["state"]) for b in bindings] == [
        ("thread:create", "completed"),
        ("thread:ping", "completed"),
    ]
    receipts = await stack.owner.fetch(
        "SELECT effect_key FROM effect_receipts WHERE job_id = $1 AND completed_at IS NOT NULL "
        "ORDER BY effect_key",
        submitted.create_job,
    )
    assert [r["effect_key"] for r in receipts] == ["map:unhide"]
    pings = stack.recorder.sends(destination=f"channel:{thread_id}")
    assert len(pings) == 1
    # The starter message shows the playtest as it stands.
    starter = stack.recorder.messages()[thread_id]
    assert starter["fingerprint"] == await current_view_fingerprint(stack, submitted)
    assert len(edits_of(stack, thread_id)) == 1
