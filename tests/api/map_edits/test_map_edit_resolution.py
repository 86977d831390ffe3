"""Resolving an edit request: once only, and everything it does commits in one transaction."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed, seed_map_edits

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]
EDITS = "/api/v3/maps/map-edits"


async def _pending(owner: asyncpg.Connection, proposed: dict[str, Any]) -> tuple[int, int, int]:
    """(edit id, map id, requester)."""
    requester = await seed.user(owner)
    map_id, code = await seed.game_map(owner, raw_difficulty=5.0)
    edit_id = await seed_map_edits.edit_request(owner, map_id, code, requester, proposed)
    return edit_id, map_id, requester


def _resolve(moderator: int, accepted: bool = True, **extra: Any) -> dict[str, Any]:
    return {"accepted": accepted, "resolved_by": moderator, **extra}


async def _actions(owner: asyncpg.Connection) -> list[str]:
    rows = await owner.fetch("SELECT action FROM jobs ORDER BY event_seq")
    return sorted(row["action"] for row in rows)


async def test_accepted_edit_commits_changes_newsfeed_notification_and_job(
    api: Client, owner: asyncpg.Connection
) -> None:
    proposed = {
        "map_name": "Lijiang Tower",
        "difficulty": "Hell",
        "hidden": True,
        "category": "Classic",
    }
    edit_id, map_id, requester = await _pending(owner, proposed)
    moderator = await seed.user(owner)
    response = await api.put(f"{EDITS}/{edit_id}/resolve", json=_resolve(moderator))
    assert response.status_code == 204, response.text

    game_map = await owner.fetchrow("SELECT * FROM core.maps WHERE id = $1", map_id)
    assert game_map is not None
    assert (game_map["map_name"], game_map["difficulty"], game_map["hidden"]) == (
        "Lijiang Tower",
        "Hell",
        True,
    )
    feed = await owner.fetch("SELECT id, payload FROM public.newsfeed")
    assert len(feed) == 1
    entry = json.loads(feed[0]["payload"])
    # hidden is moderation state and category did not change: neither is announced.
    assert entry["type"] == "map_edit"
    assert entry["changes"] == {
        "map_name": ["Hanamura", "Lijiang Tower"],
        "difficulty": ["Hard +", "Hell"],
    }
    notification = await owner.fetchrow("SELECT user_id, event_type FROM notifications.events")
    assert notification is not None
    assert tuple(notification) == (requester, "map_edit_approved")
    edit = await owner.fetchrow("SELECT * FROM maps.edit_requests WHERE id = $1", edit_id)
    assert edit is not None
    assert (edit["accepted"], edit["resolved_by"]) == (True, moderator)
    assert edit["resolved_at"] is not None
    assert await _actions(owner) == [
        "api.map_edit.resolved",
        "api.newsfeed.create",
        "api.notification.delivery",
    ]
    resolved = await owner.fetchrow(
        "SELECT event_key, entity_key FROM jobs WHERE action = 'api.map_edit.resolved'"
    )
    assert resolved is not None
    assert tuple(resolved) == (f"map_edit:resolved:{edit_id}", f"map-edit:{edit_id}")


async def test_a_failure_at_the_last_enqueue_leaves_the_map_and_request_untouched(
    api: Client, owner: asyncpg.Connection
) -> None:
    edit_id, map_id, _ = await _pending(owner, {"map_name": "Lijiang Tower"})
    moderator = await seed.user(owner)
    await owner.execute(
        "CREATE FUNCTION public.refuse_resolved_job() RETURNS trigger LANGUAGE plpgsql AS "
        "$$BEGIN IF NEW.action = 'api.map_edit.resolved' THEN RAISE EXCEPTION 'refused'; END IF; "
        "RETURN NEW; END$$"
    )
    await owner.execute(
        "CREATE TRIGGER refuse_resolved_job BEFORE INSERT ON public.jobs "
        "FOR EACH ROW EXECUTE FUNCTION public.refuse_resolved_job()"
    )
    try:
        response = await api.put(f"{EDITS}/{edit_id}/resolve", json=_resolve(moderator))
    finally:
        await owner.execute("DROP FUNCTION public.refuse_resolved_job() CASCADE")
    assert response.status_code == 500
    assert await owner.fetchval("SELECT map_name FROM core.maps WHERE id = $1", map_id) == (
        "Hanamura"
    )
    assert (
        await owner.fetchval("SELECT accepted FROM maps.edit_requests WHERE id = $1", edit_id)
        is None
    )
    assert await owner.fetchval("SELECT count(*) FROM public.newsfeed") == 0
    assert await owner.fetchval("SELECT count(*) FROM notifications.events") == 0
    assert await owner.fetchval("SELECT count(*) FROM jobs") == 0


async def test_an_edit_is_resolved_once(api: Client, owner: asyncpg.Connection) -> None:
    edit_id, _, _ = await _pending(owner, {"checkpoints": 9})
    moderator = await seed.user(owner)
    first = await api.put(f"{EDITS}/{edit_id}/resolve", json=_resolve(moderator))
    assert first.status_code == 204
    again = await api.put(
        f"{EDITS}/{edit_id}/resolve",
        json=_resolve(moderator, accepted=False, rejection_reason="changed my mind"),
    )
    assert again.status_code == 409
    assert again.json() == {
        "error": "This edit request has already been resolved.",
        "extra": None,
        "code": "conflict",
    }
    assert (
        await owner.fetchval("SELECT accepted FROM maps.edit_requests WHERE id = $1", edit_id)
        is True
    )
    assert await owner.fetchval("SELECT count(*) FROM notifications.events") == 1
    assert (
        await owner.fetchval("SELECT count(*) FROM jobs WHERE action = 'api.map_edit.resolved'")
        == 1
    )


async def test_rejected_edit_changes_nothing_and_tells_the_requester(
    api: Client, owner: asyncpg.Connection
) -> None:
    edit_id, map_id, requester = await _pending(owner, {"map_name": "Lijiang Tower"})
    moderator = await seed.user(owner)
    response = await api.put(
        f"{EDITS}/{edit_id}/resolve",
        json=_resolve(moderator, accepted=False, rejection_reason="Not an improvement"),
    )
    assert response.status_code == 204
    assert await owner.fetchval("SELECT map_name FROM core.maps WHERE id = $1", map_id) == (
        "Hanamura"
    )
    assert await owner.fetchval("SELECT count(*) FROM public.newsfeed") == 0
    notification = await owner.fetchrow(
        "SELECT user_id, event_type, body FROM notifications.events"
    )
    assert notification is not None
    assert (notification["user_id"], notification["event_type"]) == (requester, "map_edit_rejected")
    assert "Not an improvement" in notification["body"]
    assert await _actions(owner) == ["api.map_edit.resolved", "api.notification.delivery"]
    # Rejecting frees the map for a new request.
    again = await api.post(
        f"{EDITS}/",
        json={
            "code": await owner.fetchval("SELECT code FROM core.maps WHERE id = $1", map_id),
            "proposed_changes": {"checkpoints": 4},
            "reason": "second try",
            "created_by": requester,
        },
    )
    assert again.status_code == 201


async def test_archiving_edit_goes_through_the_archive_path(
    api: Client, owner: asyncpg.Connection
) -> None:
    edit_id, map_id, _ = await _pending(owner, {"archived": True, "checkpoints": 4})
    moderator = await seed.user(owner)
    assert (
        await api.put(f"{EDITS}/{edit_id}/resolve", json=_resolve(moderator))
    ).status_code == 204
    assert await owner.fetchval("SELECT archived FROM core.maps WHERE id = $1", map_id) is True
    entries = [json.loads(row["payload"]) for row in await owner.fetch(
        "SELECT payload FROM public.newsfeed ORDER BY id"
    )]  # fmt: skip
    # The archive is announced as such; the map_edit entry lists only the announced fields.
    assert sorted(entry["type"] for entry in entries) == ["archive", "map_edit"]
    edit_entry = next(entry for entry in entries if entry["type"] == "map_edit")
    assert set(edit_entry["changes"]) == {"checkpoints"}


@pytest.mark.parametrize(
    ("edit", "body", "status"),
    [
        ("missing", {}, 404),
        ("pending", {"resolved_by": 42}, 404),
        ("pending", {"accepted": "maybe"}, 400),
        ("pending", {"surprise": True}, 400),
    ],
    ids=["unknown-edit", "unknown-moderator", "bad-accepted", "unknown-field"],
)
async def test_bad_resolution_is_4xx_and_commits_nothing(
    api: Client, owner: asyncpg.Connection, edit: str, body: dict[str, Any], status: int
) -> None:
    edit_id, _, _ = await _pending(owner, {"map_name": "Lijiang Tower"})
    moderator = await seed.user(owner)
    target = edit_id if edit == "pending" else 999999
    response = await api.put(f"{EDITS}/{target}/resolve", json={**_resolve(moderator), **body})
    assert response.status_code == status, response.text
    assert (
        await owner.fetchval("SELECT accepted FROM maps.edit_requests WHERE id = $1", edit_id)
        is None
    )
    assert await owner.fetchval("SELECT count(*) FROM jobs") == 0


async def test_accepted_edit_can_send_its_map_to_playtest_in_the_same_transaction(
    api: Client, owner: asyncpg.Connection
) -> None:
    edit_id, map_id, _ = await _pending(owner, {"checkpoints": 14})
    moderator = await seed.user(owner)
    response = await api.put(
        f"{EDITS}/{edit_id}/resolve", json=_resolve(moderator, send_to_playtest=True)
    )
    assert response.status_code == 204, response.text
    assert (
        await owner.fetchval("SELECT playtesting FROM core.maps WHERE id = $1", map_id)
        == "In Progress"
    )
    playtest_id = await owner.fetchval(
        "SELECT id FROM playtests.meta WHERE map_id = $1 AND NOT completed", map_id
    )
    assert (
        await owner.fetchval("SELECT event_key FROM jobs WHERE action = 'api.playtest.create'")
        == f"map:send-to-playtest:{map_id}:{playtest_id}"
    )
    assert "api.map_edit.resolved" in await _actions(owner)


async def test_rejected_edit_never_sends_to_playtest(
    api: Client, owner: asyncpg.Connection
) -> None:
    edit_id, map_id, _ = await _pending(owner, {"checkpoints": 14})
    moderator = await seed.user(owner)
    response = await api.put(
        f"{EDITS}/{edit_id}/resolve",
        json=_resolve(moderator, accepted=False, rejection_reason="no", send_to_playtest=True),
    )
    assert response.status_code == 204, response.text
    assert (
        await owner.fetchval("SELECT playtesting FROM core.maps WHERE id = $1", map_id)
        == "Approved"
    )
    assert "api.playtest.create" not in await _actions(owner)
