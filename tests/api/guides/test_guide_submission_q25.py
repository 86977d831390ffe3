"""Q25: a guide submission is one operation: the guide, its XP, its newsfeed entry and their
jobs commit together once; the same guide again is the same operation, not a second one."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support.seed_guides import counts, guide_setup

pytestmark = pytest.mark.queue


def _guides(code: str) -> str:
    return f"/api/v3/maps/{code}/guides"


async def test_q25_a_guide_commits_once_with_its_xp_newsfeed_and_jobs(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    state = await guide_setup(owner)
    await seed.overwatch_name(owner, state.user_id, "Tracer")
    response = await api.post(
        _guides(state.code), json={"url": state.url, "user_id": state.user_id}
    )
    assert response.status_code == 201
    assert response.json() == {"url": state.url, "user_id": state.user_id}
    totals = await counts(owner)
    assert (totals["guides"], totals["xp_grants"], totals["newsfeed"]) == (1, 1, 1)
    assert (totals["api.xp.grant"], totals["api.newsfeed.create"]) == (1, 1)

    guide_id = await owner.fetchval("SELECT id FROM maps.guides")
    grant = await owner.fetchrow("SELECT * FROM lootbox.xp_grants")
    assert (grant["grant_key"], grant["type"], grant["base_amount"]) == (
        f"guide:{guide_id}",
        "Guide",
        35,
    )
    assert grant["user_id"] == state.user_id
    assert (
        await owner.fetchval("SELECT amount FROM lootbox.xp WHERE user_id = $1", state.user_id)
        == 35
    )
    payload = await owner.fetchval("SELECT payload::text FROM public.newsfeed")
    assert payload == (
        f'{{"code": "{state.code}", "name": "Tracer", "type": "guide", "guide_url": "{state.url}"}}'
    )
    keys = {
        r["action"]: r["event_key"] for r in await owner.fetch("SELECT action, event_key FROM jobs")
    }
    newsfeed_id = await owner.fetchval("SELECT id FROM public.newsfeed")
    assert keys == {
        "api.xp.grant": f"xp:grant:{grant['id']}",
        "api.newsfeed.create": f"newsfeed:create:{newsfeed_id}",
    }


async def test_q25_the_same_url_again_returns_the_guide_and_changes_nothing(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    state = await guide_setup(owner)
    body = {"url": state.url, "user_id": state.user_id}
    first = await api.post(_guides(state.code), json=body)
    after_first = await counts(owner)
    again = await api.post(_guides(state.code), json=body)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json() == body
    assert await counts(owner) == after_first
    assert (after_first["guides"], after_first["xp_grants"], after_first["newsfeed"]) == (1, 1, 1)


async def test_q25_a_different_url_is_the_legacy_conflict(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    state = await guide_setup(owner)
    await api.post(_guides(state.code), json={"url": state.url, "user_id": state.user_id})
    before = await counts(owner)
    # The URL is compared exactly as submitted: a trailing slash is another URL.
    other = await api.post(
        _guides(state.code), json={"url": state.url + "/", "user_id": state.user_id}
    )
    assert other.status_code == 409
    assert other.json() == {
        "error": f"User {state.user_id} already has a guide for map {state.code}",
        "extra": None,
        "code": "conflict",
    }
    assert await counts(owner) == before
    assert await owner.fetchval("SELECT url FROM maps.guides") == state.url


async def test_q25_an_unofficial_map_gets_no_guide_xp(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    state = await guide_setup(owner, official=False)
    response = await api.post(
        _guides(state.code), json={"url": state.url, "user_id": state.user_id}
    )
    assert response.status_code == 201
    totals = await counts(owner)
    assert (totals["guides"], totals["xp_grants"], totals["newsfeed"]) == (1, 0, 1)
    assert "api.xp.grant" not in totals
    assert totals["api.newsfeed.create"] == 1


async def test_q25_an_archived_map_takes_guides_and_names_fall_back_to_the_nickname(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    _, code = await seed.game_map(owner, archived=True)
    user_id = await seed.user(owner, name="Genji")
    url = "https://example.com/guide"
    response = await api.post(_guides(code), json={"url": url, "user_id": user_id})
    assert response.status_code == 201
    payload = await owner.fetchval("SELECT payload FROM public.newsfeed")
    assert '"name": "Genji"' in payload


async def test_q25_a_deleted_then_recreated_guide_is_a_second_operation(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    state = await guide_setup(owner)
    body = {"url": state.url, "user_id": state.user_id}
    assert (await api.post(_guides(state.code), json=body)).status_code == 201
    removed = await api.delete(f"{_guides(state.code)}/{state.user_id}")
    assert removed.status_code == 204
    assert (await api.post(_guides(state.code), json=body)).status_code == 201
    totals = await counts(owner)
    assert (totals["guides"], totals["xp_grants"], totals["newsfeed"]) == (1, 2, 2)
    assert (totals["api.xp.grant"], totals["api.newsfeed.create"]) == (2, 2)
    keys = [r[0] for r in await owner.fetch("SELECT grant_key FROM lootbox.xp_grants ORDER BY id")]
    assert len(set(keys)) == 2
    assert (
        await owner.fetchval("SELECT amount FROM lootbox.xp WHERE user_id = $1", state.user_id)
        == 70
    )


async def test_q25_two_users_guides_on_one_map_are_two_operations(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    state = await guide_setup(owner)
    other = await seed.user(owner)
    for user_id in (state.user_id, other):
        response = await api.post(_guides(state.code), json={"url": state.url, "user_id": user_id})
        assert response.status_code == 201
    totals = await counts(owner)
    assert (totals["guides"], totals["xp_grants"], totals["newsfeed"]) == (2, 2, 2)
    listed = await api.get(_guides(state.code))
    assert listed.status_code == 200
    assert listed.json() == [
        {"url": state.url, "user_id": state.user_id},
        {"url": state.url, "user_id": other},
    ]


async def test_q25_missing_map_user_or_guide_is_a_404_with_nothing_written(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    state = await guide_setup(owner)
    before = await counts(owner)
    missing_map = await api.post(
        _guides("ZZZZ99"), json={"url": state.url, "user_id": state.user_id}
    )
    assert missing_map.status_code == 404
    assert missing_map.json() == {
        "error": "No map found with code: ZZZZ99",
        "extra": None,
        "code": "not_found",
    }
    missing_user = await api.post(_guides(state.code), json={"url": state.url, "user_id": 12345})
    assert missing_user.status_code == 404
    assert missing_user.json() == {
        "error": "No user found with id: 12345",
        "extra": None,
        "code": "not_found",
    }
    missing_guide = await api.delete(f"{_guides(state.code)}/{state.user_id}")
    assert missing_guide.status_code == 404
    assert missing_guide.json() == {
        "error": f"No guide found for map {state.code} by user {state.user_id}",
        "extra": None,
        "code": "not_found",
    }
    assert await counts(owner) == before


async def test_q25_guides_need_the_maps_write_scope(
    api: AsyncTestClient,
    owner: asyncpg.Connection,
    make_key,  # type: ignore[no-untyped-def]
) -> None:
    state = await guide_setup(owner)
    body = {"url": state.url, "user_id": state.user_id}
    reader = {"X-API-KEY": await make_key("maps:read")}
    refused = await api.post(_guides(state.code), json=body, headers=reader)
    assert refused.status_code == 401
    writer = {"X-API-KEY": await make_key("maps:write")}
    assert (await api.post(_guides(state.code), json=body, headers=writer)).status_code == 201
