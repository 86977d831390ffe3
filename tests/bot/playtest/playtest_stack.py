"""Playtests produced through the API's real routes, for the playtest consumers' tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from genji_bot.features.playtest_cards import playtest_view
from genji_bot.settings import Channels
from genji_sdk.playtests import PlaytestStateResponse

from tests.bot.bot_stack import BotStack
from tests.support.seed import new_code, user, verified_completion
from tests.support.seed_maps import map_body

FORUM = f"forum:{Channels().playtest_forum}"
VERIFIER = 10**18 - 1


@dataclass(frozen=True)
class OpenPlaytest:
    map_id: int
    code: str
    playtest_id: int
    creator_id: int
    create_job: str
    thread_id: int = 0


async def submit_map(stack: BotStack, co_creators: int = 0) -> OpenPlaytest:
    """POST /maps with playtesting In Progress: the map, its playtest and its create job."""
    creator = await user(stack.owner)
    others = [{"id": await user(stack.owner), "is_primary": False} for _ in range(co_creators)]
    code = new_code()
    body = map_body(code, creator)
    body["creators"] += others
    response = await stack.http.post("/maps", json=body)
    assert response.status_code == 201, response.text
    body = response.json()
    playtest_id: int = await stack.owner.fetchval(
        "SELECT id FROM playtests.meta WHERE map_id = $1", body["id"]
    )
    return OpenPlaytest(
        map_id=body["id"],
        code=code,
        playtest_id=playtest_id,
        creator_id=creator,
        create_job=body["job_status"]["id"],
    )


async def open_playtest(stack: BotStack, co_creators: int = 0) -> OpenPlaytest:
    """A submitted map whose create job has run: the playtest is bound to its thread."""
    submitted = await submit_map(stack, co_creators)
    async with stack.worker():
        await stack.until_status(submitted.create_job, "succeeded")
    thread_id: int = await stack.owner.fetchval(
        "SELECT thread_id FROM playtests.meta WHERE id = $1", submitted.playtest_id
    )
    return OpenPlaytest(**{**submitted.__dict__, "thread_id": thread_id})


async def eligible_voter(stack: BotStack, playtest: OpenPlaytest) -> int:
    voter = await user(stack.owner)
    await verified_completion(stack.owner, playtest.map_id, voter)
    return voter


async def produce(stack: BotStack, method: str, path: str, **body: Any) -> str:
    """A playtest route answering 202 with its job; the job's id."""
    response = await stack.http.request(method, path, json=body or None)
    assert response.status_code == 202, response.text
    job_id: str = response.json()["id"]
    return job_id


async def vote(stack: BotStack, playtest: OpenPlaytest, voter: int, difficulty: float) -> str:
    return await produce(
        stack,
        "POST",
        f"/maps/playtests/{playtest.thread_id}/vote/{voter}",
        difficulty=difficulty,
    )


async def current_view_fingerprint(stack: BotStack, playtest: OpenPlaytest) -> str:
    """The starter message's view rendered from the playtest the API holds now."""
    response = await stack.http.get(f"/maps/playtests/{playtest.playtest_id}")
    response.raise_for_status()
    state = msgspec.convert(response.json(), PlaytestStateResponse)
    return playtest_view(state).fingerprint()


def edits_of(stack: BotStack, message_id: int, job_id: str | None = None) -> list[dict[str, Any]]:
    return [
        e
        for e in stack.recorder.operations("edit")
        if e["message_id"] == message_id and (job_id is None or e["job_id"] == job_id)
    ]


async def xp_rows(stack: BotStack, user_id: int) -> list[tuple[str, int]]:
    rows = await stack.owner.fetch(
        "SELECT type, base_amount FROM lootbox.xp_grants WHERE user_id = $1 ORDER BY id", user_id
    )
    return [(row["type"], row["base_amount"]) for row in rows]


async def creator_ids(stack: BotStack, playtest: OpenPlaytest) -> list[int]:
    rows = await stack.owner.fetch(
        "SELECT user_id FROM maps.creators WHERE map_id = $1 ORDER BY user_id", playtest.map_id
    )
    return [row["user_id"] for row in rows]


async def notifications(stack: BotStack, user_id: int) -> int:
    count: int = await stack.owner.fetchval(
        "SELECT count(*) FROM notifications.events WHERE user_id = $1 "
        "AND event_type = 'playtest_update'",
        user_id,
    )
    return count


def thread_ops(stack: BotStack, thread_id: int) -> list[dict[str, Any]]:
    return [e for e in stack.recorder.operations("thread") if e["thread_id"] == thread_id]
