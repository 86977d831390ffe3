"""Malformed completion requests are a 4xx with the legacy error body, and change nothing."""

from __future__ import annotations

from typing import Any

import asyncpg
import pytest
import seed_completions as sc
from jobs_view import all_actions
from litestar.testing import AsyncTestClient

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]
GOOD: dict[str, Any] = {
    "code": "ABCD",
    "user_id": 1,
    "time": 10.0,
    "screenshot": sc.SCREENSHOT,
}


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
        ("PUT", "/api/v3/completions/1/verification", {"verified": "yes", "verified_by": 1}),
        ("PUT", "/api/v3/completions/1/verification", b"["),
        ("POST", "/api/v3/completions/upvoting", {"user_id": 1, "message_id": 2, "x": 1}),
        ("PATCH", "/api/v3/completions/1", {"message_id": "x"}),
        ("PATCH", "/api/v3/tournaments/completions/1/verify", {"verified_by": 1, "why": 2}),
        ("PATCH", "/api/v3/tournaments/completions/1/reject", b"}"),
    ],
)
async def test_bad_input_is_4xx_with_error_body(
    api: Client, owner: asyncpg.Connection, method: str, url: str, body: Any
) -> None:
    if isinstance(body, bytes):
        response = await api.request(
            method, url, content=body, headers={"Content-Type": "application/json"}
        )
    else:
        response = await api.request(method, url, json=body)
    assert 400 <= response.status_code < 500
    assert set(response.json()) == {"error", "extra"}
    assert await all_actions(owner) == []
