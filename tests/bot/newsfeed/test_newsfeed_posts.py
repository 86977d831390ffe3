"""api.newsfeed.create through POST /newsfeed: where each entry is posted, once."""

from __future__ import annotations

from typing import Any

import pytest
from genji_bot.effects.port import NewForumThread, Outgoing

from tests.bot.bot_stack import BotStack
from tests.support import seed, seed_maps

pytestmark = pytest.mark.queue

EVENT = "api.newsfeed.create"


async def post_entry(stack: BotStack, entry: dict[str, Any]) -> tuple[int, str]:
    response = await stack.http.post("/newsfeed", json=entry)
    assert response.status_code == 201, response.text
    body = response.json()
    return body["newsfeed_id"], body["job_status"]["id"]


async def bindings(stack: BotStack, job_id: str) -> list[tuple[str, str, str]]:
    rows = await stack.owner.fetch(
        "SELECT effect_key, destination, state FROM effect_bindings WHERE job_id = $1", job_id
    )
    return [(r["effect_key"], r["destination"], r["state"]) for r in rows]


async def test_a_record_is_posted_in_the_newsfeed_channel(stack: BotStack) -> None:
    entry = {
        "type": "record",
        "code": seed.new_code(),
        "map_name": "Hanamura",
        "time": 12.34,
        "rank_num": 1,
        "name": "Genji",
    }
    newsfeed_id, job_id = await post_entry(stack, entry)
    async with stack.worker():
        await stack.until_status(job_id, "succeeded")

    newsfeed = f"channel:{stack.settings.channels.newsfeed}"
    assert len(stack.recorder.sends(destination=newsfeed, job_id=job_id)) == 1
    assert await bindings(stack, job_id) == [(f"newsfeed:{newsfeed_id}", newsfeed, "completed")]


async def test_an_announcement_from_discord_is_not_posted_again(stack: BotStack) -> None:
    entry = {"type": "announcement", "title": "News", "content": "Hi", "from_discord": True}
    _, job_id = await post_entry(stack, entry)
    async with stack.worker():
        await stack.until_status(job_id, "succeeded")

    assert stack.recorder.sends(job_id=job_id) == []
    assert await bindings(stack, job_id) == []


async def playtest_in_a_thread(stack: BotStack) -> seed_maps.SeededPlaytest:
    """A map in playtest whose thread (and starter message) exists at the destination."""
    thread = await stack.recorder.send(
        NewForumThread(stack.settings.channels.playtest_forum, "t"), Outgoing(content="starter")
    )
    assert thread.thread_id is not None
    return await seed_maps.playtest(stack.owner, thread_id=thread.thread_id)


async def test_q10_a_guide_of_a_map_in_playtest_goes_to_its_thread_once_across_a_replay(
    stack: BotStack,
) -> None:
    playtest = await playtest_in_a_thread(stack)
    # The thread card refresh fails once, after the post: the retry must not post again.
    stack.recorder.command(f"{EVENT}:thread-view:{playtest.thread_id}", "fail:1")
    entry = {"type": "guide", "code": playtest.code, "guide_url": "https://youtu.be/x", "name": "G"}
    newsfeed_id, job_id = await post_entry(stack, entry)
    async with stack.worker():
        await stack.until_status(job_id, "succeeded")

    thread = f"channel:{playtest.thread_id}"
    assert len(stack.recorder.sends(job_id=job_id)) == 1
    assert await bindings(stack, job_id) == [(f"newsfeed:{newsfeed_id}", thread, "completed")]
    edits = [e for e in stack.recorder.operations("edit") if e["job_id"] == job_id]
    assert [e["message_id"] for e in edits] == [playtest.thread_id]  # refreshed once it ran


async def test_a_map_edit_follows_a_code_change_into_the_playtest_thread(stack: BotStack) -> None:
    playtest = await playtest_in_a_thread(stack)
    entry = {
        "type": "map_edit",
        "code": "OLD1",
        "changes": {"code": ["OLD1", playtest.code]},
        "reason": "typo",
    }
    _, job_id = await post_entry(stack, entry)
    async with stack.worker():
        await stack.until_status(job_id, "succeeded")

    assert [s["destination"] for s in stack.recorder.sends(job_id=job_id)] == [
        f"channel:{playtest.thread_id}"
    ]


async def test_a_guide_of_a_map_out_of_playtest_goes_to_the_newsfeed_channel(
    stack: BotStack,
) -> None:
    playtest = await playtest_in_a_thread(stack)
    await stack.owner.execute(
        "UPDATE core.maps SET playtesting = 'Approved' WHERE id = $1", playtest.map_id
    )
    await stack.owner.execute(
        "UPDATE playtests.meta SET completed = true WHERE id = $1", playtest.playtest_id
    )
    entry = {"type": "guide", "code": playtest.code, "guide_url": "https://youtu.be/x", "name": "G"}
    _, job_id = await post_entry(stack, entry)
    async with stack.worker():
        await stack.until_status(job_id, "succeeded")

    newsfeed = f"channel:{stack.settings.channels.newsfeed}"
    assert [s["destination"] for s in stack.recorder.sends(job_id=job_id)] == [newsfeed]
