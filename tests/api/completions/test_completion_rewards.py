"""The reads and rewards the bot's verdict workflow uses: XP, mastery and the skill rank."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support import seed_completions as sc

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]


async def _xp(api: Client, completion_id: int) -> dict[str, object]:
    response = await api.post(f"/api/v3/completions/{completion_id}/xp", json={})
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


async def test_xp_follows_the_run_and_a_world_record_pays_once_per_map_and_player(
    api: Client, owner: asyncpg.Connection
) -> None:
    map_id, _ = await seed.game_map(owner)
    champion, runner_up = await seed.user(owner), await seed.user(owner)
    record = await seed.verified_completion(owner, map_id, champion, time=50.0)
    slower = await seed.verified_completion(owner, map_id, runner_up, time=60.0)
    first = await _xp(api, record)
    assert (first["xp_type"], first["rank"], first["granted"]) == ("World Record", 1, True)
    again = await _xp(api, record)
    assert (again["xp_type"], again["granted"]) == ("World Record", False)
    second = await _xp(api, slower)
    assert (second["xp_type"], second["rank"], second["granted"]) == ("Record", 2, True)
    pending = await sc.pending_completion(owner, map_id, await seed.user(owner), time=40.0)
    assert (await _xp(api, pending))["xp_type"] is None
    grants = await owner.fetch("SELECT user_id, type FROM lootbox.xp_grants ORDER BY id")
    assert [(g["user_id"], g["type"]) for g in grants] == [
        (champion, "World Record"),
        (runner_up, "Record"),
    ]
    assert (await api.post("/api/v3/completions/999999/xp", json={})).status_code == 404


async def test_a_completion_only_run_earns_completion_xp_once(
    api: Client, owner: asyncpg.Connection
) -> None:
    map_id, _ = await seed.game_map(owner)
    player = await seed.user(owner)
    completion_id = await seed.verified_completion(owner, map_id, player)
    await owner.execute(
        "UPDATE core.completions SET completion = true WHERE id = $1", completion_id
    )
    assert (await _xp(api, completion_id))["xp_type"] == "Completion"
    assert (await _xp(api, completion_id))["granted"] is False
    assert await owner.fetchval("SELECT amount FROM lootbox.xp WHERE user_id = $1", player) == 5


async def test_mastery_rises_with_verified_maps_of_one_name(
    api: Client, owner: asyncpg.Connection
) -> None:
    player = await seed.user(owner)
    body = {"user_id": player, "map_name": "Hanamura"}
    none_yet = await api.post("/api/v3/maps/mastery", json=body)
    assert none_yet.json() == {
        "map_name": "Hanamura",
        "level": None,
        "previous_level": None,
        "earned": False,
    }
    map_id, _ = await seed.game_map(owner)
    await seed.verified_completion(owner, map_id, player)
    earned = (await api.post("/api/v3/maps/mastery", json=body)).json()
    assert (earned["level"], earned["earned"]) == ("Bronze", True)
    kept = (await api.post("/api/v3/maps/mastery", json=body)).json()
    assert (kept["level"], kept["previous_level"], kept["earned"]) == ("Bronze", "Bronze", False)


async def test_the_skill_rank_is_the_hardest_band_of_a_verified_official_run(
    api: Client, owner: asyncpg.Connection
) -> None:
    player = await seed.user(owner)
    assert (await api.get(f"/api/v3/users/{player}/rank")).json() == {
        "user_id": player,
        "rank": "Ninja",
        "ranked": False,
    }
    easy, _ = await seed.game_map(owner, raw_difficulty=1.0)
    hell, _ = await seed.game_map(owner, raw_difficulty=9.9, official=False)
    await seed.verified_completion(owner, easy, player)
    await seed.verified_completion(owner, hell, player)
    assert (await api.get(f"/api/v3/users/{player}/rank")).json()["rank"] == "Jumper"
    assert (await api.get("/api/v3/users/999/rank")).status_code == 404
