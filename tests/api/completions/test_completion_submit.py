"""POST /api/v3/completions/: which review job each kind of run gets, and what commits with it."""

from __future__ import annotations

from typing import Any

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support import seed_completions as sc

from .jobs_view import all_actions, jobs_of, payload

pytestmark = pytest.mark.queue

URL = "/api/v3/completions/"
Client = AsyncTestClient  # type: ignore[type-arg]


def _body(code: str, user_id: int, time: float, **extra: Any) -> dict[str, Any]:
    return {"code": code, "user_id": user_id, "time": time, "screenshot": sc.SCREENSHOT, **extra}


async def _completions(owner: asyncpg.Connection, user_id: int) -> list[asyncpg.Record]:
    return await owner.fetch(
        "SELECT id, time, verified, verified_by, reason, completion, tournament_completion_id "
        "FROM core.completions WHERE user_id = $1 ORDER BY id",
        user_id,
    )


async def test_screenshot_run_goes_to_ocr(api: Client, owner: asyncpg.Connection) -> None:
    _, code = await seed.game_map(owner)
    player = await seed.user(owner)
    response = await api.post(URL, json=_body(code, player, 61.25))
    assert response.status_code == 201
    body = response.json()
    assert body["job_status"] is None
    [row] = await _completions(owner, player)
    assert body["completion_id"] == row["id"]
    assert row["completion"] is True  # no video: a completion only
    [job] = await jobs_of(owner, "completion.ocr.requested")
    assert job["event_key"] == f"completion:ocr:{row['id']}"
    assert job["entity_key"] == f"completion:{row['id']}"
    assert payload(job) == {
        "completion_id": row["id"],
        "user_id": player,
        "code": code,
        "time": 61.25,
        "screenshot": sc.SCREENSHOT,
    }
    assert await all_actions(owner) == ["completion.ocr.requested"]


@pytest.mark.parametrize("reason", ["video", "flagged"])
async def test_video_or_flagged_run_goes_to_manual_review(
    api: Client, owner: asyncpg.Connection, reason: str
) -> None:
    _, code = await seed.game_map(owner)
    player = await seed.user(owner)
    extra = {"video": sc.VIDEO} if reason == "video" else {}
    if reason == "flagged":
        await sc.suspicious_flag(owner, player)
    response = await api.post(URL, json=_body(code, player, 70.0, **extra))
    assert response.status_code == 201
    [row] = await _completions(owner, player)
    [job] = await jobs_of(owner, "api.completion.submission")
    assert response.json() == {
        "job_status": {
            "id": str(job["id"]),
            "status": "queued",
            "error_code": None,
            "error_msg": None,
        },
        "completion_id": row["id"],
    }
    assert job["event_key"] == f"completion:submission:{player}:{row['id']}"
    assert payload(job) == {"completion_id": row["id"]}
    assert row["completion"] is (reason != "video")
    assert await all_actions(owner) == ["api.completion.submission"]


async def test_faster_run_supersedes_the_pending_one(
    api: Client, owner: asyncpg.Connection
) -> None:
    await seed.user(owner, seed.BASE_USER_ID)  # the bot
    map_id, code = await seed.game_map(owner)
    player = await seed.user(owner)
    pending = await sc.pending_completion(owner, map_id, player, time=80.0, verification_id=555)
    response = await api.post(URL, json=_body(code, player, 75.0, video=sc.VIDEO))
    assert response.status_code == 201
    old, new = await _completions(owner, player)
    assert old["id"] == pending
    assert (old["verified"], old["verified_by"], old["reason"]) == (
        False,
        seed.BASE_USER_ID,
        "Superseded by a faster submission",
    )
    assert response.json()["completion_id"] == new["id"]
    [delete] = await jobs_of(owner, "api.completion.verification.delete")
    assert delete["event_key"] == f"completion:verification-delete:{pending}"
    assert payload(delete) == {"verification_id": 555}
    assert sorted(await all_actions(owner)) == [
        "api.completion.submission",
        "api.completion.verification.delete",
    ]


async def test_slower_than_pending_is_400_and_changes_nothing(
    api: Client, owner: asyncpg.Connection
) -> None:
    map_id, code = await seed.game_map(owner)
    player = await seed.user(owner)
    await sc.pending_completion(owner, map_id, player, time=80.0, verification_id=9)
    response = await api.post(URL, json=_body(code, player, 80.0))
    assert response.status_code == 400
    error = response.json()["error"]
    assert "80.0" in error and "pending" in error
    assert response.json()["extra"] == {"submitted_time": 80.0, "pending_time": 80.0}
    [row] = await _completions(owner, player)
    assert (row["verified"], row["verified_by"]) == (False, None)
    assert await all_actions(owner) == []


async def test_not_a_personal_best_is_400_on_a_plain_map(
    api: Client, owner: asyncpg.Connection
) -> None:
    map_id, code = await seed.game_map(owner)
    player = await seed.user(owner)
    await seed.verified_completion(owner, map_id, player, time=50.0)
    response = await api.post(URL, json=_body(code, player, 55.0))
    assert response.status_code == 400
    assert "personal best" in response.json()["error"]
    assert len(await _completions(owner, player)) == 1
    assert await all_actions(owner) == []


@pytest.mark.parametrize("video", [None, sc.VIDEO], ids=["ocr", "video"])
async def test_not_a_personal_best_on_a_tournament_map_is_tournament_only(
    api: Client, owner: asyncpg.Connection, video: str | None
) -> None:
    cycle = await sc.active_cycle(owner)
    player = await seed.user(owner)
    await seed.verified_completion(owner, cycle.map_id, player, time=50.0)
    extra = {"video": video} if video else {}
    response = await api.post(URL, json=_body(cycle.code, player, 55.5, **extra))
    assert response.status_code == 201
    assert len(await _completions(owner, player)) == 1  # no new core run
    [tc] = await owner.fetch(
        "SELECT id, cycle_id, time, status FROM tournaments.completions WHERE user_id = $1", player
    )
    assert (tc["cycle_id"], float(tc["time"]), tc["status"]) == (cycle.cycle_id, 55.5, "pending")
    body = response.json()
    assert body["completion_id"] == 0
    if video is None:
        assert body["job_status"] is None
        [job] = await jobs_of(owner, "tournament.ocr.requested")
        assert job["event_key"] == f"tournament:ocr:{tc['id']}"
        assert payload(job) == {
            "tournament_completion_id": tc["id"],
            "cycle_id": cycle.cycle_id,
            "user_id": player,
            "code": cycle.code,
            "time": 55.5,
            "screenshot": sc.SCREENSHOT,
        }
    else:
        [job] = await jobs_of(owner, "api.tournament.completion.created")
        assert body["job_status"]["id"] == str(job["id"])
        assert job["event_key"] == f"tournament:completion:{tc['id']}"
        assert payload(job)["completion_id"] == tc["id"]
    assert job["entity_key"] == f"tournament-completion:{tc['id']}"
    assert len(await all_actions(owner)) == 1


async def test_personal_best_on_a_tournament_map_links_both_rows(
    api: Client, owner: asyncpg.Connection
) -> None:
    cycle = await sc.active_cycle(owner)
    player = await seed.user(owner)
    response = await api.post(URL, json=_body(cycle.code, player, 42.0))
    assert response.status_code == 201
    [row] = await _completions(owner, player)
    tc = await owner.fetchrow(
        "SELECT id, cycle_id, time FROM tournaments.completions WHERE user_id = $1", player
    )
    assert row["tournament_completion_id"] == tc["id"]
    assert tc["cycle_id"] == cycle.cycle_id
    assert await all_actions(owner) == ["completion.ocr.requested"]


async def test_inactive_edition_is_not_a_tournament(api: Client, owner: asyncpg.Connection) -> None:
    cycle = await sc.active_cycle(owner)
    await owner.execute(
        "UPDATE tournaments.editions SET status = 'awaiting_results' WHERE id = $1",
        cycle.edition_id,
    )
    player = await seed.user(owner)
    response = await api.post(URL, json=_body(cycle.code, player, 42.0))
    assert response.status_code == 201
    [row] = await _completions(owner, player)
    assert row["tournament_completion_id"] is None


@pytest.mark.parametrize("case", ["unknown", "archived"])
async def test_unknown_or_archived_map_is_404(
    api: Client, owner: asyncpg.Connection, case: str
) -> None:
    player = await seed.user(owner)
    code = seed.new_code()
    if case == "archived":
        _, code = await seed.game_map(owner, archived=True)
    response = await api.post(URL, json=_body(code, player, 40.0))
    assert response.status_code == 404
    assert response.json() == {
        "error": "map code does not exist or has been archived",
        "extra": None,
        "code": "not_found",
    }


async def test_unknown_user_is_404(api: Client, owner: asyncpg.Connection) -> None:
    _, code = await seed.game_map(owner)
    response = await api.post(URL, json=_body(code, 424242, 40.0))
    assert response.status_code == 404
    assert set(response.json()) == {"error", "extra", "code"}
    assert await all_actions(owner) == []


async def test_needs_the_completions_write_scope(api: Client, make_key: Any) -> None:
    key = await make_key("completions:read")
    response = await api.post(URL, json={}, headers={"X-API-KEY": key})
    assert response.status_code in (401, 403)
