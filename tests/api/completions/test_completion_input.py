"""Malformed completion requests are a 4xx with the legacy error body, and change nothing."""

from __future__ import annotations

from typing import Any

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support import seed_completions as sc

from .jobs_view import all_actions

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]
USER = seed.BASE_USER_ID - 1
CODE = "BADIN"
GOOD: dict[str, Any] = {
    "code": CODE,
    "user_id": USER,
    "time": 10.0,
    "screenshot": sc.SCREENSHOT,
}


async def _existing_rows(owner: asyncpg.Connection) -> None:
    """Completion 1 posted as message 2 by USER on map CODE, and tournament completion 1."""
    await seed.user(owner, USER)
    map_id, _ = await seed.game_map(owner, code=CODE)
    completion_id = await sc.pending_completion(owner, map_id, USER, time=500.0, message_id=2)
    assert completion_id == 1
    cycle = await sc.active_cycle(owner)
    assert await sc.tournament_completion(owner, cycle, USER) == 1


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("POST", "/api/v3/completions/", {**GOOD, "rank": 1}),
        ("POST", "/api/v3/completions/", {**GOOD, "time": "fast"}),
        ("POST", "/api/v3/completions/", {**GOOD, "time": 0}),
        ("POST", "/api/v3/completions/", {**GOOD, "screenshot": "ftp://x/y.png"}),
        ("POST", "/api/v3/completions/", {**GOOD, "video": "not a url"}),
        ("POST", "/api/v3/completions/", {**GOOD, "code": "abc"}),
        ("POST", "/api/v3/completions/", {k: v for k, v in GOOD.items() if k != "user_id"}),
        ("POST", "/api/v3/completions/", b"{not json"),
        ("PUT", "/api/v3/completions/1/verification", {"verified": "yes", "verified_by": USER}),
        ("PUT", "/api/v3/completions/1/verification", b"["),
        ("POST", "/api/v3/completions/upvoting", {"user_id": USER, "message_id": 2, "x": 1}),
        ("PATCH", "/api/v3/completions/1", {"message_id": "x"}),
        ("PATCH", "/api/v3/tournaments/completions/1/verify", {"verified_by": USER, "why": 2}),
        ("PATCH", "/api/v3/tournaments/completions/1/reject", b"}"),
    ],
)
async def test_bad_input_is_4xx_with_error_body(
    api: Client, owner: asyncpg.Connection, method: str, url: str, body: Any
) -> None:
    await _existing_rows(owner)
    if isinstance(body, bytes):
        response = await api.request(
            method, url, content=body, headers={"Content-Type": "application/json"}
        )
    else:
        response = await api.request(method, url, json=body)
    # Each request names rows that exist, so only the malformed part can make it fail.
    assert response.status_code == 400
    assert set(response.json()) == {"error", "extra", "code"}
    assert await all_actions(owner) == []
