"""Q01: the guide and its XP commit with the map, or roll back with it."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.api.db_state import table_counts
from tests.support.seed import new_code, user
from tests.support.seed_maps import map_body

pytestmark = pytest.mark.queue


async def test_q01_guide_xp_rolls_back_with_the_map(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    creator = await user(owner)
    code = new_code()
    body = map_body(code, creator, guide_url="https://youtu.be/guide", official=True)
    before = await table_counts(owner)
    # The map's own commit fails (a deferred trigger on core.maps), after the guide, its XP and
    # every job were written: anything committed elsewhere would survive.
    await owner.execute(
        "CREATE FUNCTION public.map_commit_fails() RETURNS trigger LANGUAGE plpgsql AS "
        "$$BEGIN RAISE EXCEPTION 'injected failure (map commit)'; END$$"
    )
    await owner.execute(
        "CREATE CONSTRAINT TRIGGER map_commit_fails AFTER INSERT ON core.maps "
        "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.map_commit_fails()"
    )
    try:
        response = await api.post("/api/v3/maps", json=body)
    finally:
        await owner.execute("DROP FUNCTION public.map_commit_fails() CASCADE")
    assert response.status_code == 500
    after = await table_counts(owner)
    assert after == before
    assert after["lootbox.xp_grants"] == 0 and after["maps.guides"] == 0


async def test_guide_xp_commits_with_an_official_map(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    creator = await user(owner)
    code = new_code()
    body = map_body(code, creator, guide_url="https://youtu.be/guide", official=True)
    response = await api.post("/api/v3/maps", json=body)
    assert response.status_code == 201, response.text
    grant = await owner.fetchrow(
        "SELECT g.grant_key, g.user_id, g.type, j.event_key FROM lootbox.xp_grants g "
        "JOIN maps.guides gd ON g.grant_key = 'guide:' || gd.id "
        "JOIN jobs j ON j.event_key = 'xp:grant:' || g.id WHERE gd.map_id = $1",
        response.json()["id"],
    )
    assert grant is not None and grant["user_id"] == creator and grant["type"] == "Guide"
    assert await owner.fetchval("SELECT amount FROM lootbox.xp WHERE user_id = $1", creator) == 35


async def test_unofficial_map_guide_grants_no_xp(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    creator = await user(owner)
    body = map_body(new_code(), creator, guide_url="https://youtu.be/guide", official=False)
    response = await api.post("/api/v3/maps", json=body)
    assert response.status_code == 201, response.text
    assert await owner.fetchval("SELECT count(*) FROM maps.guides") == 1
    assert await owner.fetchval("SELECT count(*) FROM lootbox.xp_grants") == 0
