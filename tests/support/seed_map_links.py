"""Link set-ups for tests: a link whose official map awaits its playtest thread."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import httpx
from genji_sdk import ClaimToken, JobContext

from . import seed

LINKS = "/api/v3/maps/link-codes/"
CONTINUATION = "map.linked.newsfeed.requested"


async def link(api: httpx.AsyncClient, official: str, unofficial: str) -> httpx.Response:
    return await api.post(LINKS, json={"official_code": official, "unofficial_code": unofficial})


async def playtest_link(api: httpx.AsyncClient, owner: asyncpg.Connection) -> dict[str, Any]:
    """Link an existing unofficial map to a new official code (its copy enters playtesting)."""
    _, unofficial = await seed.game_map(owner, official=False)
    official = seed.new_code()
    response = await link(api, official, unofficial)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    official_map_id = await owner.fetchval("SELECT id FROM core.maps WHERE code = $1", official)
    return {
        "link_id": body["link_id"],
        "continuation": UUID(body["job_status"]["id"]),
        "official": official,
        "unofficial": unofficial,
        "official_map_id": official_map_id,
    }


async def bind_thread(owner: asyncpg.Connection, map_id: int, thread_id: int) -> None:
    """What the bot's playtest-create handler records once it made the thread."""
    await owner.execute(
        "UPDATE playtests.meta SET thread_id = $2 WHERE map_id = $1", map_id, thread_id
    )


def continuation_context(link: dict[str, Any]) -> JobContext:
    """The context a worker hands the continuation of `link` (its claim is not checked)."""
    return JobContext(
        job_id=link["continuation"],
        event_name=CONTINUATION,
        event_key=f"map:linked:{link['link_id']}",
        attempt=1,
        retry_generation=0,
        claim=ClaimToken(queue_job_id=0, queue_manager_id=uuid4(), claimed_at=datetime.now(UTC)),
    )
