"""Map edit requests over HTTP: one pending per map, one resolution, and what a resolution commits.

Every check reads what committed on the independent owner connection.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import asyncpg
import httpx
import pytest
from litestar.testing import AsyncTestClient

from tests.api.concurrent_client import concurrent_api_fixture  # noqa: F401  (the fixture)
from tests.support import seed, seed_map_edits
from tests.support.harness import eventually
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]
EDITS = "/api/v3/maps/map-edits"


def _create_body(code: str, user_id: int, **changes: Any) -> dict[str, Any]:
    return {
        "code": code,
        "proposed_changes": changes or {"map_name": "Lijiang Tower"},
        "reason": "The name is wrong",
        "created_by": user_id,
    }


async def _jobs(owner: asyncpg.Connection, action: str) -> list[asyncpg.Record]:
    return await owner.fetch(
        "SELECT id, event_key, entity_key FROM jobs WHERE action = $1 ORDER BY event_seq", action
    )


async def test_create_commits_the_request_and_its_job(
    api: Client, owner: asyncpg.Connection
) -> None:
    user = await seed.user(owner)
    map_id, code = await seed.game_map(owner)
    response = await api.post(f"{EDITS}/", json=_create_body(code, user, checkpoints=12))
    assert response.status_code == 201, response.text
    body = response.json()
    edit_id = body["id"]
    row = await owner.fetchrow("SELECT * FROM maps.edit_requests WHERE id = $1", edit_id)
    assert row is not None
    assert (row["map_id"], row["code"], row["accepted"]) == (map_id, code, None)
    assert json.loads(row["proposed_changes"]) == {"checkpoints": 12}
    jobs = await _jobs(owner, "api.map_edit.created")
    assert [(j["event_key"], j["entity_key"]) for j in jobs] == [
        (f"map_edit:created:{edit_id}", f"map-edit:{edit_id}")
    ]
    assert body["job_status"]["id"] == str(jobs[0]["id"])

    read = await api.get(f"{EDITS}/{edit_id}")
    assert read.status_code == 200
    assert read.json()["proposed_changes"] == {"checkpoints": 12}


async def test_a_second_pending_request_for_a_map_is_409(
    api: Client, owner: asyncpg.Connection
) -> None:
    user = await seed.user(owner)
    _, code = await seed.game_map(owner)
    assert (await api.post(f"{EDITS}/", json=_create_body(code, user))).status_code == 201
    second = await api.post(f"{EDITS}/", json=_create_body(code, user, category="Other"))
    assert second.status_code == 409
    assert second.json() == {
        "error": "There is already a pending edit request for this map.",
        "extra": None,
        "code": "conflict",
    }
    assert len(await _jobs(owner, "api.map_edit.created")) == 1


async def _blocked_inserts_at_least(probe: asyncpg.Connection, n: int) -> bool:
    count: int = await probe.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'genji-api' "
        "AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO maps.edit_requests%'"
    )
    return count >= n


async def test_concurrent_creates_for_one_map_give_one_201_and_one_409(
    concurrent_api: httpx.AsyncClient, owner: asyncpg.Connection, connect: Connect
) -> None:
    user = await seed.user(owner)
    _, code = await seed.game_map(owner)
    probe = await connect()
    # The barrier: both requests pass the pending check, then wait at their INSERT for this
    # lock, so their transactions overlap and only the unique index can decide between them.
    barrier = owner.transaction()
    await barrier.start()
    await owner.execute("LOCK TABLE maps.edit_requests IN SHARE MODE")
    posts = [
        asyncio.ensure_future(concurrent_api.post(f"{EDITS}/", json=_create_body(code, user))),
        asyncio.ensure_future(
            concurrent_api.post(f"{EDITS}/", json=_create_body(code, user, checkpoints=3))
        ),
    ]
    try:
        await eventually(
            lambda: _blocked_inserts_at_least(probe, 2), what="both INSERTs at the barrier"
        )
    finally:
        await barrier.rollback()
    responses = await asyncio.gather(*posts)
    assert sorted(r.status_code for r in responses) == [201, 409]
    conflict = next(r for r in responses if r.status_code == 409)
    assert conflict.json()["error"] == "There is already a pending edit request for this map."
    assert await owner.fetchval("SELECT count(*) FROM maps.edit_requests") == 1
    assert len(await _jobs(owner, "api.map_edit.created")) == 1


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"proposed_changes": {"code": "ABCD"}}, 400),
        ({"proposed_changes": {}}, 400),
        ({"proposed_changes": {"checkpoints": 0}}, 400),
        ({"proposed_changes": {"difficulty": "Impossible"}}, 400),
        ({"surprise": 1}, 400),
        ({"code": "ZZZZZZ"}, 404),
        ({"created_by": 42}, 404),
    ],
    ids=[
        "unknown-field",
        "no-change",
        "bad-checkpoints",
        "bad-difficulty",
        "unknown-top-field",
        "unknown-map",
        "unknown-user",
    ],
)
async def test_bad_create_is_4xx_and_commits_nothing(
    api: Client, owner: asyncpg.Connection, body: dict[str, Any], status: int
) -> None:
    user = await seed.user(owner)
    _, code = await seed.game_map(owner)
    response = await api.post(f"{EDITS}/", json={**_create_body(code, user), **body})
    assert response.status_code == status, response.text
    assert set(response.json()) == {"error", "extra", "code"}
    assert await owner.fetchval("SELECT count(*) FROM maps.edit_requests") == 0
    assert await owner.fetchval("SELECT count(*) FROM jobs") == 0


async def test_message_id_is_stored(api: Client, owner: asyncpg.Connection) -> None:
    user = await seed.user(owner)
    map_id, code = await seed.game_map(owner)
    edit_id = await seed_map_edits.edit_request(owner, map_id, code, user, {"category": "Other"})
    response = await api.patch(f"{EDITS}/{edit_id}/message", json={"message_id": 123456789})
    assert response.status_code == 200, response.text
    assert response.json()["message_id"] == 123456789
    stored = await owner.fetchval(
        "SELECT message_id FROM maps.edit_requests WHERE id = $1", edit_id
    )
    assert stored == 123456789
    assert (await api.patch(f"{EDITS}/999999/message", json={"message_id": 1})).status_code == 404
    assert (await api.get(f"{EDITS}/999999")).status_code == 404
