"""Q03: a guide's jobs commit with the guide and wait, queued, while no worker runs; a bot worker
started later delivers them.

The API runs on the stack's own cluster with no worker; the guide, its XP grant, its newsfeed
entry and both jobs are read from an independent connection right after the response.
"""

from __future__ import annotations

from uuid import UUID

import pytest
from genji_api.app import create_app
from genji_api.settings import ApiSettings
from litestar.testing import AsyncTestClient

from tests.support.harness import Stack, eventually
from tests.support.secrets_seen import issue_token

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

USER = 1_000_000_000_000_000_777
CODE = "GUIDE3"
URL = "https://youtu.be/guide3"


async def _seed(stack: Stack) -> str:
    conn = await stack.connect()
    try:
        await conn.execute(
            "INSERT INTO core.users (id, nickname, global_name) VALUES ($1, 'Kiriko', 'Kiriko')",
            USER,
        )
        map_id = await conn.fetchval(
            "INSERT INTO core.maps (code, map_name, official, playtesting, hidden) "
            "VALUES ($1, 'Hanamura', true, 'Approved', false) RETURNING id",
            CODE,
        )
        await conn.execute(
            "INSERT INTO maps.creators (map_id, user_id, is_primary) VALUES ($1, $2, true)",
            map_id,
            USER,
        )
        key: str = await issue_token(
            conn, "guides", superuser=False, scopes=frozenset({"maps:write"})
        )
        return key
    finally:
        await conn.close()


async def _guide_jobs(stack: Stack) -> dict[str, UUID]:
    rows = await stack.sql("SELECT id, action FROM jobs")
    return {row["action"]: row["id"] for row in rows}


async def test_q03_guide_jobs_wait_queued_without_a_worker_and_run_when_one_starts(
    stack: Stack,
) -> None:
    key = await _seed(stack)
    app = create_app(ApiSettings(database_url=stack.dsn, pool_max_size=2))
    async with AsyncTestClient(app=app) as api:
        response = await api.post(
            f"/api/v3/maps/{CODE}/guides",
            json={"url": URL, "user_id": USER},
            headers={"X-API-KEY": key},
        )
    assert response.status_code == 201
    assert response.json() == {"url": URL, "user_id": USER}

    assert await stack.value("SELECT url FROM maps.guides WHERE user_id = $1", USER) == URL
    assert await stack.value("SELECT count(*) FROM lootbox.xp_grants") == 1
    assert await stack.value("SELECT count(*) FROM public.newsfeed") == 1
    jobs = await _guide_jobs(stack)
    assert set(jobs) == {"api.xp.grant", "api.newsfeed.create"}
    for job_id in jobs.values():
        assert await stack.status(job_id) == "queued"
        assert (await stack.job(job_id))["queue_status"] == "queued"
    assert await stack.value("SELECT count(*) FROM queue_workers") == 0

    stack.start_worker("bot")
    for job_id in jobs.values():
        await stack.until_status(job_id, "succeeded", deadline=30)

    async def both_delivered() -> bool:
        return all([await stack.tally(job_id) == 1 for job_id in jobs.values()])

    await eventually(both_delivered, 10, "each guide job's effect to be applied once")
    for job_id in jobs.values():
        assert stack.recorder.count("announce", job_id=str(job_id)) == 1
