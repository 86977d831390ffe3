"""Q14 end to end: a linked-map announcement waits for the playtest its link created.

Real processes: the API (HTTP and its worker, which runs map.linked.newsfeed.requested) and a
bot worker whose playtest-create effect fails until the test lets it succeed. The continuation
is never started while its parent is unfinished, is held with DependencyFailed when the parent
is held, and resumes by itself, without the link being submitted again, once an operator
retries the parent (recovery_retry) and it succeeds.
"""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import asyncpg
import httpx
import pytest
from genji_devstack.api_child import ApiChild

from tests.support.harness import FAST_SETTINGS, Stack, eventually
from tests.support.secrets_seen import issue_token

pytestmark = pytest.mark.queue_fault

BOT_USER_ID = 10**18
CREATOR = 10**18 + 11
THREAD_ID = 10**18 + 500
OFFICIAL, UNOFFICIAL = "LINKO1", "LINKU1"

REQUEUE = "SELECT outcome FROM recovery_retry($1, 0, 'q14-retry', 1098765432109876543)"


async def _seed(conn: asyncpg.Connection) -> str:
    await conn.execute(
        "INSERT INTO core.users (id, nickname) VALUES ($1, 'Genji Shimada'), ($2, 'Maker')",
        BOT_USER_ID,
        CREATOR,
    )
    map_id = await conn.fetchval(
        "INSERT INTO core.maps (code, map_name, official, playtesting, hidden) "
        "VALUES ($1, 'Hanamura', false, 'Approved', false) RETURNING id",
        UNOFFICIAL,
    )
    await conn.execute(
        "INSERT INTO maps.creators (map_id, user_id, is_primary) VALUES ($1, $2, true)",
        map_id,
        CREATOR,
    )
    return await issue_token(conn, "q14", superuser=True)


async def _status(conn: asyncpg.Connection, job_id: UUID) -> str:
    status: str = await conn.fetchval("SELECT status FROM job_public_status($1)", job_id)
    return status


async def test_linked_newsfeed_waits_is_held_and_resumes_q14(stack: Stack, tmp_path: Path) -> None:
    conn = await stack.connect()
    key = await _seed(conn)
    stack.recorder.command("api.playtest.create:before", "fail")
    bot = stack.start_worker("bot")
    api = ApiChild(
        stack.dsn,
        tmp_path / "api.log",
        {**FAST_SETTINGS, "BOT_USER_ID": str(BOT_USER_ID), "TOURNAMENT_OUTBOX_INTERVAL": "3600"},
    ).start()
    try:
        await api.until_ready()
        await stack.fleet.until_registered(bot)
        async with httpx.AsyncClient(base_url=api.url, headers={"X-API-KEY": key}) as client:
            response = await client.post(
                "/api/v3/maps/link-codes",
                json={"official_code": OFFICIAL, "unofficial_code": UNOFFICIAL},
            )
            assert response.status_code == 201, response.text
            continuation = UUID(response.json()["job_status"]["id"])
            parent = await conn.fetchval("SELECT depends_on FROM jobs WHERE id = $1", continuation)
            assert parent is not None
            assert (
                await conn.fetchval("SELECT action FROM jobs WHERE id = $1", parent)
                == "api.playtest.create"
            )

            # The parent fails through its retries; the continuation never starts meanwhile.
            await stack.until_status(parent, "failed", 30)
            await stack.until_status(continuation, "failed", 30)
            assert (
                await conn.fetchval("SELECT error_code FROM jobs WHERE id = $1", continuation)
                == "DependencyFailed"
            )
            assert await conn.fetchval("SELECT count(*) FROM public.newsfeed") == 0

            # What the bot's playtest-create handler does once it works: bind the thread.
            stack.recorder.command("api.playtest.create:before", "complete")
            playtest_id = await conn.fetchval(
                "SELECT p.id FROM playtests.meta p JOIN core.maps m ON m.id = p.map_id "
                "WHERE m.code = $1",
                OFFICIAL,
            )
            bound = await client.patch(
                f"/api/v3/maps/playtests/{playtest_id}", json={"thread_id": THREAD_ID}
            )
            assert bound.status_code in (200, 204), bound.text
            assert await conn.fetchval(REQUEUE, parent) == "accepted"

            await stack.until_status(parent, "succeeded", 30)
            await stack.until_status(continuation, "succeeded", 30)

        async def announced() -> asyncpg.Record | None:
            row: asyncpg.Record | None = await conn.fetchrow(
                "SELECT payload FROM public.newsfeed WHERE event_type = 'linked_map'"
            )
            return row

        row = await eventually(announced, 10, "the linked_map newsfeed entry")
        payload = json.loads(row["payload"])
        assert payload["playtest_id"] == THREAD_ID
        assert payload["official_code"] == OFFICIAL
        assert await conn.fetchval("SELECT count(*) FROM public.newsfeed") == 1

    finally:
        api.stop()
