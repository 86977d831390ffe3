"""Playtest votes and verdicts: one transitions row and one job per transition."""

from __future__ import annotations

import asyncpg
import pytest
from genji_api.playtests.transitions import enqueue_transition
from genji_sdk.payloads import PlaytestResetEvent
from litestar.testing import AsyncTestClient

from tests.support.seed import user, verified_completion
from tests.support.seed_maps import new_thread_id, playtest, vote

pytestmark = pytest.mark.queue

VERIFIER = 10**18 - 1
RESET = {
    "verifier_id": VERIFIER,
    "reason": "Checkpoint skip fixed",
    "remove_votes": True,
    "remove_completions": False,
}


def _base(thread_id: int) -> str:
    return f"/api/v3/maps/playtests/{thread_id}"


async def test_q09_two_resets_are_two_jobs_and_a_retransmitted_reset_is_one(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    seeded = await playtest(owner)
    first = await api.post(f"{_base(seeded.thread_id)}/reset", json=RESET)
    second = await api.post(f"{_base(seeded.thread_id)}/reset", json=RESET)
    assert first.status_code == second.status_code == 202
    assert first.json()["id"] != second.json()["id"]
    rows = await owner.fetch(
        "SELECT t.id, j.id AS job_id, j.event_key, j.entity_key FROM playtests.transitions t "
        "JOIN jobs j ON j.event_key = 'playtest:reset:' || t.id "
        "WHERE t.playtest_id = $1 AND t.kind = 'reset' ORDER BY t.id",
        seeded.playtest_id,
    )
    assert [str(row["job_id"]) for row in rows] == [first.json()["id"], second.json()["id"]]
    assert {row["entity_key"] for row in rows} == {f"playtest:{seeded.playtest_id}"}
    assert (
        await owner.fetchval(
            "SELECT reset_generation FROM playtests.meta WHERE id = $1", seeded.playtest_id
        )
        == 2
    )

    # Retransmitting the first reset's transition resolves to its job: no new work.
    queued = await owner.fetchval("SELECT count(*) FROM pgqueuer")
    async with owner.transaction():
        again = await enqueue_transition(
            owner,
            kind="reset",
            transition_id=rows[0]["id"],
            playtest_id=seeded.playtest_id,
            payload=PlaytestResetEvent(
                transition_id=rows[0]["id"], thread_id=seeded.thread_id, **RESET
            ),
            trace=None,
        )
    assert str(again.id) == first.json()["id"]
    assert await owner.fetchval("SELECT count(*) FROM pgqueuer") == queued


async def test_vote_of_a_player_without_a_verified_completion_is_400(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    seeded = await playtest(owner)
    stranger = await user(owner)
    before = await owner.fetchval("SELECT count(*) FROM jobs")
    response = await api.post(
        f"{_base(seeded.thread_id)}/vote/{stranger}", json={"difficulty": 5.0}
    )
    assert response.status_code == 400
    assert "needs a verified completion" in response.json()["error"]
    assert await owner.fetchval("SELECT count(*) FROM jobs") == before
    assert await owner.fetchval("SELECT count(*) FROM playtests.transitions") == 0

    eligible = await api.post(
        f"{_base(seeded.thread_id)}/vote/{seeded.voter_id}", json={"difficulty": 5.0}
    )
    assert eligible.status_code == 202
    recast = await api.post(
        f"{_base(seeded.thread_id)}/vote/{seeded.voter_id}", json={"difficulty": 7.0}
    )
    assert recast.status_code == 202 and recast.json()["id"] != eligible.json()["id"]
    assert (
        await owner.fetchval(
            "SELECT difficulty FROM playtests.votes WHERE user_id = $1", seeded.voter_id
        )
        == 7
    )


async def test_removing_a_missing_vote_is_400(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    seeded = await playtest(owner)
    response = await api.delete(f"{_base(seeded.thread_id)}/vote/{seeded.voter_id}")
    assert response.status_code == 400
    unknown = await api.delete(f"{_base(new_thread_id())}/vote/{seeded.voter_id}")
    assert unknown.status_code == 404


async def test_approve_sets_the_average_vote_difficulty(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    seeded = await playtest(owner)
    empty = await api.post(f"{_base(seeded.thread_id)}/approve", json={"verifier_id": VERIFIER})
    assert empty.status_code == 400
    for difficulty in (2.0, 3.0, 7.0):  # average 4.0: 'Hard -'
        await vote(owner, seeded, difficulty)
    response = await api.post(f"{_base(seeded.thread_id)}/approve", json={"verifier_id": VERIFIER})
    assert response.status_code == 202, response.text
    row = await owner.fetchrow(
        "SELECT m.playtesting, m.raw_difficulty, m.difficulty, p.completed "
        "FROM core.maps m JOIN playtests.meta p ON p.map_id = m.id WHERE p.id = $1",
        seeded.playtest_id,
    )
    assert (row["playtesting"], float(row["raw_difficulty"]), row["difficulty"]) == (
        "Approved",
        4.0,
        "Hard -",
    )
    assert row["completed"]
    job = await owner.fetchrow(
        "SELECT action, event_key FROM jobs WHERE id = $1::uuid", response.json()["id"]
    )
    transition = await owner.fetchval(
        "SELECT id FROM playtests.transitions WHERE playtest_id = $1 AND kind = 'approve'",
        seeded.playtest_id,
    )
    assert (job["action"], job["event_key"]) == (
        "api.playtest.approve",
        f"playtest:approve:{transition}",
    )
    again = await api.post(f"{_base(seeded.thread_id)}/approve", json={"verifier_id": VERIFIER})
    assert again.status_code == 409


async def test_force_accept_stores_the_band_midpoint(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    seeded = await playtest(owner)
    response = await api.post(
        f"{_base(seeded.thread_id)}/force-accept",
        json={"verifier_id": VERIFIER, "difficulty": "Very Hard +"},
    )
    assert response.status_code == 202
    row = await owner.fetchrow(
        "SELECT raw_difficulty, difficulty FROM core.maps WHERE id = $1", seeded.map_id
    )
    assert (float(row["raw_difficulty"]), row["difficulty"]) == (7.19, "Very Hard +")


async def test_thread_binding_is_idempotent_and_refuses_another_thread(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    seeded = await playtest(owner, bound=False)
    thread = new_thread_id()
    path = f"/api/v3/maps/playtests/{seeded.playtest_id}"
    first = await api.patch(path, json={"thread_id": thread, "verification_id": 77})
    again = await api.patch(path, json={"thread_id": thread})
    assert first.status_code == again.status_code == 200
    assert again.json()["verification_id"] == 77
    other = await api.patch(path, json={"thread_id": new_thread_id()})
    assert other.status_code == 409


async def test_send_to_playtest_makes_runs_legacy_and_refuses_twice(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    from tests.support.seed import game_map

    map_id, code = await game_map(owner)
    await verified_completion(owner, map_id, await user(owner))
    response = await api.post(f"/api/v3/maps/{code}/playtest")
    assert response.status_code == 202, response.text
    row = await owner.fetchrow(
        "SELECT m.playtesting, m.hidden, p.id, j.event_key FROM core.maps m "
        "JOIN playtests.meta p ON p.map_id = m.id JOIN jobs j ON j.id = $2::uuid "
        "WHERE m.id = $1",
        map_id,
        response.json()["id"],
    )
    assert (row["playtesting"], row["hidden"]) == ("In Progress", False)
    assert row["event_key"] == f"map:send-to-playtest:{map_id}:{row['id']}"
    assert await owner.fetchval(
        "SELECT bool_and(legacy) FROM core.completions WHERE map_id = $1", map_id
    )
    again = await api.post(f"/api/v3/maps/{code}/playtest")
    assert again.status_code == 409
