"""POST /api/v3/maps: the map, its playtest row and its playtest-create job commit together."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.api.db_state import job_events, table_counts
from tests.support.seed import new_code, user
from tests.support.seed_maps import map_body

pytestmark = pytest.mark.queue


async def test_playtest_create_job_commits_with_the_map(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    creator = await user(owner)
    code = new_code()
    response = await api.post("/api/v3/maps", json=map_body(code, creator))
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["code"] == code and body["job_status"]["status"] == "queued"
    row = await owner.fetchrow(
        "SELECT m.id, m.difficulty, p.id AS playtest_id, p.initial_difficulty, j.event_key, "
        "j.entity_key FROM core.maps m JOIN playtests.meta p ON p.map_id = m.id "
        "JOIN jobs j ON j.id = $2::uuid WHERE m.code = $1",
        code,
        body["job_status"]["id"],
    )
    assert row["id"] == body["id"]
    assert row["difficulty"] == "Hard"
    assert row["event_key"] == f"map:submit:{row['id']}"
    assert row["entity_key"] == f"playtest:{row['playtest_id']}"


async def test_duplicate_code_is_409_and_leaves_nothing(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    creator = await user(owner)
    code = new_code()
    first = await api.post("/api/v3/maps", json=map_body(code, creator))
    assert first.status_code == 201
    before = await table_counts(owner)
    events = await job_events(owner)
    second = await api.post("/api/v3/maps", json=map_body(code, creator, map_name="Busan"))
    assert second.status_code == 409
    assert second.json() == {
        "error": f"A map with code {code} already exists.",
        "extra": None,
        "code": "conflict",
    }
    assert await table_counts(owner) == before
    assert await job_events(owner) == events
