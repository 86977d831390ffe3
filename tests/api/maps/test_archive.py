"""Archiving a map in playtesting closes its playtest as denied, in the archive transaction."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support.seed import game_map
from tests.support.seed_maps import playtest

pytestmark = pytest.mark.queue


async def test_archiving_an_in_progress_map_force_denies_its_playtest(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    seeded = await playtest(owner)
    _, approved = await game_map(owner)
    body = {"codes": [seeded.code, approved], "archived": True, "reason": "Game patch"}
    response = await api.post("/api/v3/maps/archive", json=body)
    assert response.status_code == 200, response.text
    [denied] = response.json()["force_deny_jobs"]
    job = await owner.fetchrow(
        "SELECT action, event_key, entity_key, payload_hash FROM jobs WHERE id = $1::uuid",
        denied["id"],
    )
    transition = await owner.fetchrow(
        "SELECT id, actor_id, details FROM playtests.transitions WHERE playtest_id = $1",
        seeded.playtest_id,
    )
    assert job["action"] == "api.playtest.force_deny"
    assert job["event_key"] == f"playtest:force_deny:{transition['id']}"
    assert job["entity_key"] == f"playtest:{seeded.playtest_id}"
    assert transition["actor_id"] == 10**18  # the bot user of the test settings
    state = await owner.fetchrow(
        "SELECT m.playtesting, m.hidden, m.archived, p.completed FROM core.maps m "
        "JOIN playtests.meta p ON p.map_id = m.id WHERE p.id = $1",
        seeded.playtest_id,
    )
    assert tuple(state) == ("Rejected", True, True, True)
    feed = await owner.fetchval("SELECT payload->>'type' FROM public.newsfeed")
    assert feed == "bulk_archive"


async def test_archiving_an_unknown_code_is_404_and_changes_nothing(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    _, code = await game_map(owner)
    body = {"codes": [code, "ZZZZZ"], "archived": True, "reason": "Game patch"}
    response = await api.post("/api/v3/maps/archive", json=body)
    assert response.status_code == 404
    assert response.json()["error"] == "No map found with code: ZZZZZ"
    assert not await owner.fetchval("SELECT archived FROM core.maps WHERE code = $1", code)
