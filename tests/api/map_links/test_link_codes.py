"""POST/DELETE /api/v3/maps/link-codes: the three linking cases, each in one transaction."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support import seed_map_links as sl
from tests.support.queue_helpers import claim_next

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]


async def _map(owner: asyncpg.Connection, code: str) -> asyncpg.Record:
    row = await owner.fetchrow("SELECT * FROM core.maps WHERE code = $1", code)
    assert row is not None
    return row


async def _feed(owner: asyncpg.Connection) -> list[dict[str, Any]]:
    rows = await owner.fetch("SELECT payload FROM public.newsfeed ORDER BY id")
    return [json.loads(row["payload"]) for row in rows]


async def _job(owner: asyncpg.Connection, action: str) -> asyncpg.Record:
    row = await owner.fetchrow(
        "SELECT id, event_key, entity_key, depends_on FROM jobs WHERE action = $1", action
    )
    assert row is not None, action
    return row


async def test_both_maps_exist_link_and_announce_at_once(
    api: Client, owner: asyncpg.Connection
) -> None:
    _, official = await seed.game_map(owner)
    _, unofficial = await seed.game_map(owner, official=False)
    response = await sl.link(api, official, unofficial)
    assert response.status_code == 201, response.text
    body = response.json()
    assert (await _map(owner, official))["linked_code"] == unofficial
    assert (await _map(owner, unofficial))["linked_code"] == official
    assert await _feed(owner) == [
        {"type": "linked_map", "official_code": official, "unofficial_code": unofficial,
         "playtest_id": None}
    ]  # fmt: skip
    newsfeed_job = await _job(owner, "api.newsfeed.create")
    assert body["job_status"]["id"] == str(newsfeed_job["id"])
    operation = await owner.fetchrow(
        "SELECT * FROM maps.link_operations WHERE id = $1", body["link_id"]
    )
    assert operation is not None and operation["newsfeed_id"] is not None


async def test_only_the_official_map_gets_an_approved_visible_unofficial_copy(
    api: Client, owner: asyncpg.Connection
) -> None:
    _, official = await seed.game_map(owner, raw_difficulty=7.0)
    unofficial = seed.new_code()
    response = await sl.link(api, official, unofficial)
    assert response.status_code == 201, response.text
    copy = await _map(owner, unofficial)
    assert (copy["official"], copy["playtesting"], copy["hidden"], copy["linked_code"]) == (
        False,
        "Approved",
        False,
        official,
    )
    assert copy["map_name"] == "Hanamura" and copy["difficulty"] == "Very Hard +"
    assert [entry["type"] for entry in await _feed(owner)] == ["new_map", "linked_map"]
    assert (
        await owner.fetchval("SELECT count(*) FROM jobs WHERE action = 'api.playtest.create'") == 0
    )
    assert (
        await owner.fetchval("SELECT count(*) FROM maps.creators WHERE map_id = $1", copy["id"])
        == 1
    )


async def test_q14_playtest_link_commits_with_its_continuation_which_waits_for_the_playtest_job(
    api: Client, owner: asyncpg.Connection
) -> None:
    link = await sl.playtest_link(api, owner)
    copy = await _map(owner, link["official"])
    assert (copy["official"], copy["playtesting"], copy["hidden"], copy["linked_code"]) == (
        True,
        "In Progress",
        True,
        link["unofficial"],
    )
    assert await _feed(owner) == []  # announced only once the thread exists
    playtest = await _job(owner, "api.playtest.create")
    assert playtest["event_key"] == f"map:submit:{copy['id']}"
    continuation = await _job(owner, sl.CONTINUATION)
    assert continuation["id"] == link["continuation"]
    assert continuation["event_key"] == f"map:linked:{link['link_id']}"
    assert continuation["depends_on"] == playtest["id"]

    # The parent is unfinished: the start gate gives no claim on the continuation.
    assert await claim_next(owner, uuid4(), sl.CONTINUATION) is None
    parent = await claim_next(owner, uuid4(), "api.playtest.create")
    assert parent is not None
    assert await claim_next(owner, uuid4(), sl.CONTINUATION) is None  # parent still running
    assert await owner.fetchval(
        "SELECT queue_complete($1, $2, $3)", parent.id, parent.queue_manager_id, parent.updated
    )
    claimed = await claim_next(owner, uuid4(), sl.CONTINUATION)
    assert claimed is not None
    job_id = await owner.fetchval("SELECT id FROM jobs WHERE queue_job_id = $1", claimed.id)
    assert UUID(str(job_id)) == link["continuation"]


async def test_a_failed_continuation_enqueue_leaves_no_copy_link_or_playtest_job(
    api: Client, owner: asyncpg.Connection
) -> None:
    _, unofficial = await seed.game_map(owner, official=False)
    official = seed.new_code()
    await owner.execute(
        "CREATE FUNCTION public.refuse_continuation() RETURNS trigger LANGUAGE plpgsql AS "
        "$$BEGIN IF NEW.action = 'map.linked.newsfeed.requested' THEN RAISE EXCEPTION 'refused'; "
        "END IF; RETURN NEW; END$$"
    )
    await owner.execute(
        "CREATE TRIGGER refuse_continuation BEFORE INSERT ON public.jobs "
        "FOR EACH ROW EXECUTE FUNCTION public.refuse_continuation()"
    )
    try:
        response = await sl.link(api, official, unofficial)
    finally:
        await owner.execute("DROP FUNCTION public.refuse_continuation() CASCADE")
    assert response.status_code == 500
    assert await owner.fetchval("SELECT count(*) FROM core.maps WHERE code = $1", official) == 0
    assert (await _map(owner, unofficial))["linked_code"] is None
    assert await owner.fetchval("SELECT count(*) FROM maps.link_operations") == 0
    assert await owner.fetchval("SELECT count(*) FROM playtests.meta") == 0
    assert await owner.fetchval("SELECT count(*) FROM jobs") == 0


@pytest.mark.parametrize(
    ("case", "status", "error"),
    [
        ("neither", 404, "Neither the official nor the unofficial map exists."),
        ("same-code", 400, "A map cannot be linked to itself."),
        ("official-is-unofficial", 400, "The official code names an unofficial map."),
        ("already-linked", 409, "One of these maps is already linked to another map."),
    ],
)
async def test_bad_link_is_4xx_and_commits_nothing(
    api: Client, owner: asyncpg.Connection, case: str, status: int, error: str
) -> None:
    _, official = await seed.game_map(owner)
    _, other = await seed.game_map(owner, official=False)
    _, unofficial = await seed.game_map(owner, official=False)
    codes = {
        "neither": (seed.new_code(), seed.new_code()),
        "same-code": (official, official),
        "official-is-unofficial": (other, unofficial),
        "already-linked": (official, unofficial),
    }[case]
    if case == "already-linked":
        assert (await sl.link(api, official, other)).status_code == 201
    before = await owner.fetchval("SELECT count(*) FROM jobs")
    response = await sl.link(api, *codes)
    assert response.status_code == status, response.text
    assert response.json()["error"] == error
    assert await owner.fetchval("SELECT count(*) FROM jobs") == before
    assert await owner.fetchval("SELECT count(*) FROM core.maps") == 3


async def test_unknown_body_field_is_400(api: Client) -> None:
    response = await api.post(
        sl.LINKS, json={"official_code": "AAAA", "unofficial_code": "BBBB", "extra": 1}
    )
    assert response.status_code == 400


async def test_unlink_clears_both_sides_and_announces_it(
    api: Client, owner: asyncpg.Connection
) -> None:
    _, official = await seed.game_map(owner)
    _, unofficial = await seed.game_map(owner, official=False)
    assert (await sl.link(api, official, unofficial)).status_code == 201
    body = {"official_code": official, "unofficial_code": unofficial, "reason": "Wrong pair"}
    response = await api.request("DELETE", sl.LINKS, json=body)
    assert response.status_code == 200, response.text
    assert (await _map(owner, official))["linked_code"] is None
    assert (await _map(owner, unofficial))["linked_code"] is None
    assert (await _feed(owner))[-1] == {
        "type": "unlinked_map", "official_code": official, "unofficial_code": unofficial,
        "reason": "Wrong pair",
    }  # fmt: skip
    again = await api.request("DELETE", sl.LINKS, json=body)
    assert again.status_code == 409
