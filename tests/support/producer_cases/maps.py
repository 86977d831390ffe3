"""Producers of the maps and playtests features."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.seed import game_map, new_code, user, verified_completion
from tests.support.seed_maps import SeededPlaytest, map_body, playtest, vote

from .case import ProducerCase, ProducerEnv


async def _creator(env: ProducerEnv) -> dict[str, Any]:
    return {"code": new_code(), "creator": await user(env.owner)}


def _create(**fields: Any) -> Any:
    async def act(env: ProducerEnv, state: dict[str, Any]) -> httpx.Response:
        body = map_body(state["code"], state["creator"], **fields)
        return await env.api.post("/api/v3/maps", json=body)

    return act


async def _playtest(env: ProducerEnv) -> SeededPlaytest:
    return await playtest(env.owner)


async def _voted_playtest(env: ProducerEnv) -> SeededPlaytest:
    seeded = await playtest(env.owner)
    await vote(env.owner, seeded, 3.0)
    return seeded


async def _approved_map(env: ProducerEnv) -> str:
    map_id, code = await game_map(env.owner)
    await verified_completion(env.owner, map_id, await user(env.owner))
    return code


def _thread_post(action: str, body: dict[str, Any]) -> Any:
    async def act(env: ProducerEnv, seeded: SeededPlaytest) -> httpx.Response:
        return await env.api.post(f"/api/v3/maps/playtests/{seeded.thread_id}/{action}", json=body)

    return act


async def _send_to_playtest(env: ProducerEnv, code: str) -> httpx.Response:
    return await env.api.post(f"/api/v3/maps/{code}/playtest")


async def _cast_vote(env: ProducerEnv, seeded: SeededPlaytest) -> httpx.Response:
    path = f"/api/v3/maps/playtests/{seeded.thread_id}/vote/{seeded.voter_id}"
    return await env.api.post(path, json={"difficulty": 6.5})


async def _own_vote_playtest(env: ProducerEnv) -> SeededPlaytest:
    seeded = await playtest(env.owner)
    await env.owner.execute(
        "INSERT INTO playtests.votes (user_id, map_id, playtest_thread_id, difficulty) "
        "VALUES ($1, $2, $3, 2.0)",
        seeded.voter_id,
        seeded.map_id,
        seeded.thread_id,
    )
    return seeded


async def _remove_vote(env: ProducerEnv, seeded: SeededPlaytest) -> httpx.Response:
    path = f"/api/v3/maps/playtests/{seeded.thread_id}/vote/{seeded.voter_id}"
    return await env.api.delete(path)


async def _archive(env: ProducerEnv, seeded: SeededPlaytest) -> httpx.Response:
    body = {"codes": [seeded.code], "archived": True, "reason": "Broken by a game patch"}
    return await env.api.post("/api/v3/maps/archive", json=body)


VERIFIER = 10**18 - 1

CASES: list[ProducerCase] = [
    ProducerCase(
        name="map-create-playtest",
        events=frozenset({"api.playtest.create"}),
        setup=_creator,
        act=_create(),
    ),
    ProducerCase(
        name="map-create-approved",
        events=frozenset({"api.newsfeed.create"}),
        setup=_creator,
        act=_create(playtesting="Approved", hidden=False),
    ),
    ProducerCase(
        name="map-create-with-guide",
        events=frozenset({"api.playtest.create", "api.xp.grant"}),
        setup=_creator,
        act=_create(official=True, guide_url="https://youtu.be/guide"),
    ),
    ProducerCase(
        name="send-to-playtest",
        events=frozenset({"api.playtest.create"}),
        setup=_approved_map,
        act=_send_to_playtest,
        ok=202,
    ),
    ProducerCase(
        name="vote-cast",
        events=frozenset({"api.playtest.vote.cast"}),
        setup=_playtest,
        act=_cast_vote,
        ok=202,
    ),
    ProducerCase(
        name="vote-remove",
        events=frozenset({"api.playtest.vote.remove"}),
        setup=_own_vote_playtest,
        act=_remove_vote,
        ok=202,
    ),
    ProducerCase(
        name="playtest-approve",
        events=frozenset({"api.playtest.approve"}),
        setup=_voted_playtest,
        act=_thread_post("approve", {"verifier_id": VERIFIER}),
        ok=202,
    ),
    ProducerCase(
        name="playtest-force-accept",
        events=frozenset({"api.playtest.force_accept"}),
        setup=_playtest,
        act=_thread_post("force-accept", {"verifier_id": VERIFIER, "difficulty": "Extreme"}),
        ok=202,
    ),
    ProducerCase(
        name="playtest-force-deny",
        events=frozenset({"api.playtest.force_deny"}),
        setup=_playtest,
        act=_thread_post("force-deny", {"verifier_id": VERIFIER, "reason": "Unfinished"}),
        ok=202,
    ),
    ProducerCase(
        name="playtest-reset",
        events=frozenset({"api.playtest.reset"}),
        setup=_voted_playtest,
        act=_thread_post(
            "reset",
            {
                "verifier_id": VERIFIER,
                "reason": "Checkpoint skip fixed",
                "remove_votes": True,
                "remove_completions": True,
            },
        ),
        ok=202,
    ),
    ProducerCase(
        name="map-archive-force-deny",
        events=frozenset({"api.playtest.force_deny", "api.newsfeed.create"}),
        setup=_playtest,
        act=_archive,
        ok=200,
    ),
]
