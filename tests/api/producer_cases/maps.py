"""Producers of the maps and playtests features."""

from __future__ import annotations

from typing import Any

import httpx
from seed import new_code, user
from seed_maps import map_body

from producer_cases.case import ProducerCase, ProducerEnv


async def _creator(env: ProducerEnv) -> dict[str, Any]:
    return {"code": new_code(), "creator": await user(env.owner)}


def _create(**fields: Any) -> Any:
    async def act(env: ProducerEnv, state: dict[str, Any]) -> httpx.Response:
        body = map_body(state["code"], state["creator"], **fields)
        return await env.api.post("/api/v3/maps", json=body)

    return act


CASES: list[ProducerCase] = [
    ProducerCase(
        name="map-create-playtest",
        events=frozenset({"api.playtest.create"}),
        setup=_creator,
        act=_create(),
    ),
    ProducerCase(
        name="map-create-approved",
        events=frozenset({"api.newsfeed.create"}),
        setup=_creator,
        act=_create(playtesting="Approved", hidden=False),
    ),
    ProducerCase(
        name="map-create-with-guide",
        events=frozenset({"api.playtest.create", "api.xp.grant"}),
        setup=_creator,
        act=_create(official=True, guide_url="https://youtu.be/guide"),
    ),
]
