"""Verification, tournament verdict, upvote, message-id and submission routes over HTTP."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support import seed_completions as sc

from .jobs_view import all_actions, jobs_of, payload

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]


async def test_verification_route_returns_the_verdict_job(
    api: Client, owner: asyncpg.Connection
) -> None:
    map_id, _ = await seed.game_map(owner)
    player, moderator = await seed.user(owner), await seed.user(owner)
    completion_id = await sc.pending_completion(owner, map_id, player)
    response = await api.put(
        f"/api/v3/completions/{completion_id}/verification",
        json={"verified": False, "verified_by": moderator, "reason": "Wrong map"},
    )
    assert response.status_code == 200
    [job] = await jobs_of(owner, "api.completion.verification")
    assert response.json()["id"] == str(job["id"])
    transition = await owner.fetchval(
        "SELECT id FROM completions.verification_transitions WHERE completion_id = $1",
        completion_id,
    )
    assert payload(job) == {
        "completion_id": completion_id,
        "transition_id": transition,
        "verified": False,
        "verified_by": moderator,
        "reason": "Wrong map",
    }


@pytest.mark.parametrize("unknown", ["completion", "moderator"])
async def test_verification_of_unknown_is_404(
    api: Client, owner: asyncpg.Connection, unknown: str
) -> None:
    map_id, _ = await seed.game_map(owner)
    player, moderator = await seed.user(owner), await seed.user(owner)
    completion_id = await sc.pending_completion(owner, map_id, player)
    target = 999_999 if unknown == "completion" else completion_id
    verifier = 31337 if unknown == "moderator" else moderator
    response = await api.put(
        f"/api/v3/completions/{target}/verification",
        json={"verified": True, "verified_by": verifier},
    )
    assert response.status_code == 404
    assert await all_actions(owner) == []


async def test_tournament_routes_verify_then_refuse_a_reject(
    api: Client, owner: asyncpg.Connection
) -> None:
    cycle = await sc.active_cycle(owner)
    player = await seed.user(owner)
    tc_id = await sc.tournament_completion(owner, cycle, player)
    base = f"/api/v3/tournaments/completions/{tc_id}"
    verified = await api.patch(f"{base}/verify", json={"verified_by": 7})
    assert verified.status_code == 200
    rejected = await api.patch(f"{base}/reject", json={"verified_by": 7})
    assert rejected.status_code == 409
    assert set(rejected.json()) == {"error", "extra", "code"}
    again = await api.patch(f"{base}/verify", json={"verified_by": 7})
    assert again.json() == verified.json()
    missing = await api.patch(
        "/api/v3/tournaments/completions/999999/reject", json={"verified_by": 7}
    )
    assert missing.status_code == 404
    assert sorted(await all_actions(owner)) == [
        "api.tournament.verification.changed",
        "api.xp.grant",
    ]


async def test_tournament_routes_need_the_verify_scope(api: Client, make_key: object) -> None:
    key = await make_key("tournaments:write")  # type: ignore[operator]
    response = await api.patch(
        "/api/v3/tournaments/completions/1/verify",
        json={"verified_by": 7},
        headers={"X-API-KEY": key},
    )
    assert response.status_code in (401, 403)


async def _posted_completion(owner: asyncpg.Connection, message_id: int) -> int:
    map_id, _ = await seed.game_map(owner)
    author = await seed.user(owner)
    completion_id = await seed.verified_completion(owner, map_id, author)
    await owner.execute(
        "UPDATE core.completions SET message_id = $2 WHERE id = $1", completion_id, message_id
    )
    return author


async def test_every_tenth_upvote_is_announced(api: Client, owner: asyncpg.Connection) -> None:
    message_id = 8_800_001
    author = await _posted_completion(owner, message_id)
    await sc.upvotes(owner, message_id, 9)
    results = []
    for _ in range(11):
        voter = await seed.user(owner)
        response = await api.post(
            "/api/v3/completions/upvoting", json={"user_id": voter, "message_id": message_id}
        )
        assert response.status_code == 201
        results.append(response.json())
    assert [r["upvotes"] for r in results] == list(range(10, 21))
    announced = [r["upvotes"] for r in results if r["job_status"] is not None]
    assert announced == [10, 20]
    jobs = await jobs_of(owner, "api.completion.upvote")
    assert [j["event_key"] for j in jobs] == [
        f"completion:upvote:{message_id}:10",
        f"completion:upvote:{message_id}:20",
    ]
    assert [j["entity_key"] for j in jobs] == [None, None]
    assert payload(jobs[0]) == {"user_id": author, "message_id": message_id, "milestone": 10}
    assert [str(j["id"]) for j in jobs] == [
        r["job_status"]["id"] for r in results if r["job_status"] is not None
    ]


async def test_duplicate_upvote_is_409_and_unknown_message_404(
    api: Client, owner: asyncpg.Connection
) -> None:
    message_id = 8_800_002
    await _posted_completion(owner, message_id)
    voter = await seed.user(owner)
    body = {"user_id": voter, "message_id": message_id}
    assert (await api.post("/api/v3/completions/upvoting", json=body)).status_code == 201
    duplicate = await api.post("/api/v3/completions/upvoting", json=body)
    assert duplicate.status_code == 409
    assert duplicate.json() == {
        "error": "User has already upvoted this completion.",
        "extra": None,
        "code": "conflict",
    }
    unknown = await api.post(
        "/api/v3/completions/upvoting", json={"user_id": voter, "message_id": 1234}
    )
    assert unknown.status_code == 404
    assert await owner.fetchval("SELECT count(*) FROM completions.upvotes") == 1


async def test_bot_stores_message_ids_and_reads_the_submission(
    api: Client, owner: asyncpg.Connection
) -> None:
    map_id, code = await seed.game_map(owner)
    player = await seed.user(owner)
    completion_id = await sc.pending_completion(owner, map_id, player, time=33.3, video=sc.VIDEO)
    url = f"/api/v3/completions/{completion_id}"
    assert (await api.patch(url, json={"verification_id": 77})).status_code == 204
    assert (await api.patch(url, json={"message_id": 88})).status_code == 204
    response = await api.get(f"{url}/submission")
    assert response.status_code == 200
    assert response.json() == {
        "id": completion_id,
        "code": code,
        "user_id": player,
        "time": 33.3,
        "screenshot": sc.SCREENSHOT,
        "video": sc.VIDEO,
        "state": "pending",
        "completion": False,
        "verified_by": None,
        "reason": None,
        "verification_id": 77,
        "message_id": 88,
    }
    assert (
        await api.patch("/api/v3/completions/999999", json={"message_id": 1})
    ).status_code == 404
    assert (await api.get("/api/v3/completions/999999/submission")).status_code == 404
