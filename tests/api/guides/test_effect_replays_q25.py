"""Q25: the newsfeed, notification and XP routes a bot handler calls as effects create their row
once per (job, effect); a replay gets the recorded result, a stale claim cannot start one, and
ordinary clients keep their plain contracts (every XP request is a grant of its own)."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support.seed_guides import claimed_job, counts, expire_claim

pytestmark = pytest.mark.queue

ANNOUNCEMENT = {"type": "announcement", "title": "Patch", "content": "Notes"}


def _notification(user_id: int) -> dict[str, object]:
    return {
        "user_id": user_id,
        "event_type": "xp_gain",
        "title": "XP",
        "body": "You gained XP.",
        "discord_message": "gg",
        "metadata": {"amount": 5},
    }


async def test_q25_a_replayed_newsfeed_effect_returns_the_same_entry(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed_job(owner, await seed.user(owner))
    headers = job.headers("newsfeed")
    first = await api.post("/api/v3/newsfeed", json=ANNOUNCEMENT, headers=headers)
    again = await api.post("/api/v3/newsfeed", json=ANNOUNCEMENT, headers=headers)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    totals = await counts(owner)
    assert (totals["newsfeed"], totals["api.newsfeed.create"]) == (1, 1)
    entry = await api.get(f"/api/v3/newsfeed/{first.json()['newsfeed_id']}")
    assert entry.status_code == 200
    assert set(entry.json()) == {"id", "timestamp", "payload"}
    assert entry.json()["payload"] == {**ANNOUNCEMENT, "from_discord": False}
    assert (await api.get("/api/v3/newsfeed/999999")).status_code == 404


async def test_q25_ordinary_newsfeed_requests_each_create_an_entry(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    ids = {
        (await api.post("/api/v3/newsfeed", json=ANNOUNCEMENT)).json()["newsfeed_id"] for _ in "ab"
    }
    assert len(ids) == 2
    assert (await counts(owner))["api.newsfeed.create"] == 2


async def test_q25_a_replayed_notification_effect_returns_the_same_event(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    job = await claimed_job(owner, user_id)
    headers = job.headers("notification:xp_gain")
    first = await api.post(
        "/api/v3/notifications/events", json=_notification(user_id), headers=headers
    )
    again = await api.post(
        "/api/v3/notifications/events", json=_notification(user_id), headers=headers
    )
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert first.json()["job_status"]["status"] == "queued"
    totals = await counts(owner)
    assert (totals["notifications"], totals["api.notification.delivery"]) == (1, 1)


async def test_q25_a_notification_for_an_unknown_user_is_a_404(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    before = await counts(owner)
    response = await api.post("/api/v3/notifications/events", json=_notification(424242))
    assert response.status_code == 404
    assert response.json() == {
        "error": "No user found with id: 424242",
        "extra": None,
        "code": "not_found",
    }
    assert await counts(owner) == before


async def test_q25_a_replayed_xp_effect_grants_once_under_its_effect_key(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    job = await claimed_job(owner, user_id)
    headers = job.headers("xp:record")
    body = {"amount": 15, "type": "Record", "reason": "new record"}
    path = f"/api/v3/lootbox/users/{user_id}/xp"
    before = await counts(owner)
    first = await api.post(path, json=body, headers=headers)
    again = await api.post(path, json=body, headers=headers)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert (first.json()["previous_amount"], first.json()["new_amount"]) == (0, 15)
    assert await owner.fetchval("SELECT grant_key FROM lootbox.xp_grants") == (
        f"effect:{job.job_id}:xp:record"
    )
    assert await owner.fetchval("SELECT amount FROM lootbox.xp WHERE user_id = $1", user_id) == 15
    assert (await counts(owner)).get("api.xp.grant", 0) == before.get("api.xp.grant", 0) + 1


async def test_q25_every_ordinary_xp_request_is_a_new_grant(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    path = f"/api/v3/lootbox/users/{user_id}/xp"
    results = [(await api.post(path, json={"amount": 5, "type": "Other"})).json() for _ in "ab"]
    assert [(r["previous_amount"], r["new_amount"]) for r in results] == [(0, 5), (5, 10)]
    keys = [r[0] for r in await owner.fetch("SELECT grant_key FROM lootbox.xp_grants")]
    assert len(keys) == 2 and all(k.startswith("request:") for k in keys)
    missing = await api.post("/api/v3/lootbox/users/777/xp", json={"amount": 5, "type": "Other"})
    assert missing.status_code == 404


async def test_q25_a_stale_claim_cannot_start_an_effect_but_reads_a_completed_one(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    job = await claimed_job(owner, user_id)
    path = f"/api/v3/lootbox/users/{user_id}/xp"
    body = {"amount": 5, "type": "Completion"}
    done = await api.post(path, json=body, headers=job.headers("xp"))
    await expire_claim(owner, job)
    before = await counts(owner)

    replay = await api.post(path, json=body, headers=job.headers("xp"))
    assert (replay.status_code, replay.json()) == (201, done.json())
    for route, payload, effect in (
        (path, body, "xp:new-effect"),
        ("/api/v3/newsfeed", ANNOUNCEMENT, "newsfeed:new-effect"),
        ("/api/v3/notifications/events", _notification(user_id), "notification:new-effect"),
    ):
        stale = await api.post(route, json=payload, headers=job.headers(effect))
        assert stale.status_code == 409, route
        assert stale.json() == {
            "error": "The job's claim is no longer active.",
            "extra": None,
            "code": "claim_lost",
        }
    other_body = await api.post(
        path, json={"amount": 500, "type": "Completion"}, headers=job.headers("xp")
    )
    assert other_body.status_code == 409
    assert await counts(owner) == before
