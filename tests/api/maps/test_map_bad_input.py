"""Malformed requests are a 4xx with the legacy error body and change nothing."""

from __future__ import annotations

from typing import Any

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.api.db_state import table_counts
from tests.support.seed import new_code, user
from tests.support.seed_maps import map_body, playtest

pytestmark = pytest.mark.queue


async def test_bad_map_input_is_a_4xx_error_body(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    creator = await user(owner)
    seeded = await playtest(owner)
    cases: list[tuple[str, str, Any, int]] = [
        ("POST", "/api/v3/maps", {**map_body(new_code(), creator), "colour": "red"}, 400),
        ("POST", "/api/v3/maps", map_body("bad", creator), 400),
        ("POST", "/api/v3/maps", map_body(new_code(), creator, creators=[]), 400),
        (
            "POST",
            "/api/v3/maps",
            map_body(
                new_code(),
                creator,
                creators=[{"id": creator, "is_primary": True}, {"id": 5, "is_primary": True}],
            ),
            400,
        ),
        ("POST", "/api/v3/maps", map_body(new_code(), creator, raw_difficulty=3.0), 400),
        ("POST", "/api/v3/maps", map_body(new_code(), 123456789), 404),
        ("POST", "/api/v3/maps/bad-code/playtest", None, 400),
        ("POST", "/api/v3/maps/QQQQQ/playtest", None, 404),
        (
            "POST",
            f"/api/v3/maps/playtests/{seeded.thread_id}/vote/{seeded.voter_id}",
            {"difficulty": 11},
            400,
        ),
        (
            "POST",
            f"/api/v3/maps/playtests/{seeded.thread_id}/force-accept",
            {"verifier_id": 1, "difficulty": "Impossible"},
            400,
        ),
        ("POST", "/api/v3/maps/archive", {"codes": [], "archived": True, "reason": "x"}, 400),
    ]
    before = await table_counts(owner)
    for method, path, body, status in cases:
        response = await api.request(method, path, json=body)
        assert response.status_code == status, (path, body, response.text)
        payload = response.json()
        assert set(payload) == {"error", "extra", "code"} and payload["error"], payload
    assert await table_counts(owner) == before


async def test_scopes_are_required(
    api: AsyncTestClient,  # type: ignore[type-arg]
    make_key: Any,
) -> None:
    key = await make_key("maps:read")
    response = await api.post(
        "/api/v3/maps/archive",
        json={"codes": ["AAAA"], "archived": True, "reason": "x"},
        headers={"X-API-KEY": key},
    )
    assert response.status_code in (401, 403)
    assert set(response.json()) == {"error", "extra", "code"}
