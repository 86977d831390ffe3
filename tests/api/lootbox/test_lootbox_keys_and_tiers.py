"""Lootbox keys (one per grant item, the final guard of rank and prestige rewards) and the rank
reads the XP handler goes by."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support.seed_guides import claimed_job

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]


async def _keys(owner: asyncpg.Connection, user_id: int) -> int:
    count: int = await owner.fetchval(
        "SELECT count(*) FROM lootbox.user_keys WHERE user_id = $1", user_id
    )
    return count


@pytest.mark.parametrize(
    ("old", "new", "rank", "prestige"),
    [(110, 130, False, False), (0, 150, True, False), (9_950, 10_050, True, True)],
)
async def test_tier_change_names_rank_and_prestige_changes(
    api: Client, old: int, new: int, rank: bool, prestige: bool
) -> None:
    response = await api.get("/api/v3/lootbox/xp/tier", params={"old_xp": old, "new_xp": new})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["rank_change"], body["prestige_change"]) == (rank, prestige)
    assert body["new"]["rank"] == new // 100


async def test_a_users_tier_follows_their_current_total(
    api: Client,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    await owner.execute("INSERT INTO lootbox.xp (user_id, amount) VALUES ($1, 10600)", user_id)
    body = (await api.get(f"/api/v3/lootbox/users/{user_id}/tier")).json()
    assert (body["prestige"], body["main_tier"], body["sub_tier"]) == (1, 1, 1)
    missing = await api.get(f"/api/v3/lootbox/users/{user_id + 10**6}/tier")
    assert missing.status_code == 404


async def test_each_item_of_a_grant_is_one_key(
    api: Client,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    path = f"/api/v3/lootbox/users/{user_id}/keys"
    first = await api.post(path, json={"grant_key": "xp:1:prestige", "item": 1})
    again = await api.post(path, json={"grant_key": "xp:1:prestige", "item": 1})
    second = await api.post(path, json={"grant_key": "xp:1:prestige", "item": 2})
    assert [r.status_code for r in (first, again, second)] == [201, 201, 201]
    assert (first.json()["granted"], again.json()["granted"]) == (True, False)
    assert again.json()["key_id"] == first.json()["key_id"]
    assert await _keys(owner, user_id) == 2
    # Without a grant, every ordinary request is a key of its own.
    await api.post(path, json={})
    await api.post(path, json={})
    assert await _keys(owner, user_id) == 4


async def test_key_grants_refuse_unknown_users_types_and_foreign_grants(
    api: Client,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id, other = await seed.user(owner), await seed.user(owner)
    await api.post(f"/api/v3/lootbox/users/{user_id}/keys", json={"grant_key": "g", "item": 1})
    foreign = await api.post(
        f"/api/v3/lootbox/users/{other}/keys", json={"grant_key": "g", "item": 1}
    )
    unknown_type = await api.post(
        f"/api/v3/lootbox/users/{user_id}/keys", json={"key_type": "Nope"}
    )
    unknown_user = await api.post(f"/api/v3/lootbox/users/{other + 10**6}/keys", json={})
    assert (foreign.status_code, unknown_type.status_code, unknown_user.status_code) == (
        400,
        400,
        404,
    )
    assert await _keys(owner, other) == 0


async def test_only_xp_grant_jobs_may_request_keys(
    api: Client,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    job = await claimed_job(owner, user_id)  # a completion verdict job
    response = await api.post(
        f"/api/v3/lootbox/users/{user_id}/keys", json={}, headers=job.headers("keys:rank:1")
    )
    assert response.status_code == 400, response.text
    assert await _keys(owner, user_id) == 0
