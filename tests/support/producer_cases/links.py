"""Producers of map edits, map links and the linked-map newsfeed continuation."""

from __future__ import annotations

from typing import Any

import httpx
from genji_api.database import Database, create_pool
from genji_api.map_links.handler import make_linked_newsfeed_handler
from genji_sdk.payloads import LinkedMapNewsfeedRequestedEvent

from tests.support import seed, seed_map_edits
from tests.support import seed_map_links as sl

from .case import ProducerCase, ProducerEnv

EDITS = "/api/v3/maps/map-edits"


async def _edit_setup(env: ProducerEnv) -> tuple[int, int]:
    """(edit id, moderator)."""
    requester = await seed.user(env.owner)
    moderator = await seed.user(env.owner)
    map_id, code = await seed.game_map(env.owner)
    edit_id = await seed_map_edits.edit_request(
        env.owner, map_id, code, requester, {"map_name": "Lijiang Tower"}
    )
    return edit_id, moderator


async def _create_setup(env: ProducerEnv) -> dict[str, Any]:
    user = await seed.user(env.owner)
    _, code = await seed.game_map(env.owner)
    return {"code": code, "proposed_changes": {"checkpoints": 7}, "reason": "x", "created_by": user}


async def _create(env: ProducerEnv, body: dict[str, Any]) -> httpx.Response:
    return await env.api.post(f"{EDITS}/", json=body)


def _resolve(accepted: bool) -> Any:
    async def act(env: ProducerEnv, state: tuple[int, int]) -> httpx.Response:
        edit_id, moderator = state
        body = {"accepted": accepted, "resolved_by": moderator, "rejection_reason": "no"}
        return await env.api.put(f"{EDITS}/{edit_id}/resolve", json=body)

    return act


async def _both_exist(env: ProducerEnv) -> tuple[str, str]:
    _, official = await seed.game_map(env.owner)
    _, unofficial = await seed.game_map(env.owner, official=False)
    return official, unofficial


async def _only_official(env: ProducerEnv) -> tuple[str, str]:
    _, official = await seed.game_map(env.owner)
    return official, seed.new_code()


async def _only_unofficial(env: ProducerEnv) -> tuple[str, str]:
    _, unofficial = await seed.game_map(env.owner, official=False)
    return seed.new_code(), unofficial


async def _link(env: ProducerEnv, codes: tuple[str, str]) -> httpx.Response:
    return await sl.link(env.api, *codes)


async def _continuation_setup(env: ProducerEnv) -> dict[str, Any]:
    link = await sl.playtest_link(env.api, env.owner)
    await sl.bind_thread(env.owner, link["official_map_id"], 9_000_000_000_000_000_001)
    return link


async def _continue(env: ProducerEnv, link: dict[str, Any]) -> None:
    pool = await create_pool(env.settings.database_url, max_size=1)
    try:
        handler = make_linked_newsfeed_handler(Database(pool), env.settings)
        event = LinkedMapNewsfeedRequestedEvent(
            official_code=link["official"],
            unofficial_code=link["unofficial"],
            official_map_id=link["official_map_id"],
        )
        await handler(event, sl.continuation_context(link))
    finally:
        await pool.close()


CASES = [
    ProducerCase(
        name="map-edit-create",
        events=frozenset({"api.map_edit.created"}),
        setup=_create_setup,
        act=_create,
    ),
    ProducerCase(
        name="map-edit-resolve-accept",
        events=frozenset(
            {"api.map_edit.resolved", "api.newsfeed.create", "api.notification.delivery"}
        ),
        setup=_edit_setup,
        act=_resolve(True),
        ok=204,
    ),
    ProducerCase(
        name="map-edit-resolve-reject",
        events=frozenset({"api.map_edit.resolved", "api.notification.delivery"}),
        setup=_edit_setup,
        act=_resolve(False),
        ok=204,
    ),
    ProducerCase(
        name="map-link-immediate",
        events=frozenset({"api.newsfeed.create"}),
        setup=_both_exist,
        act=_link,
    ),
    ProducerCase(
        name="map-link-clone-official",
        events=frozenset({"api.newsfeed.create"}),
        setup=_only_official,
        act=_link,
    ),
    ProducerCase(
        name="map-link-clone-playtest",
        events=frozenset({"api.playtest.create", "map.linked.newsfeed.requested"}),
        setup=_only_unofficial,
        act=_link,
    ),
    ProducerCase(
        name="linked-newsfeed-continuation",
        events=frozenset({"api.newsfeed.create"}),
        setup=_continuation_setup,
        act=_continue,
    ),
]
