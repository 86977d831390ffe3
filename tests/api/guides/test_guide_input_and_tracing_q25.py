"""Q25: bad input is a 4xx with the legacy error body and writes nothing; a request's jobs carry
only its allow-listed tracing header, never its credentials."""

from __future__ import annotations

import logging

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support.seed_guides import counts, envelope_of, guide_setup

pytestmark = pytest.mark.queue

TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


async def _bad_requests(code: str, user_id: int) -> list[tuple[str, str, object]]:
    """(id, path, body): a dict is sent as JSON, bytes as they are."""
    guides = f"/api/v3/maps/{code}/guides"
    xp = f"/api/v3/lootbox/users/{user_id}/xp"
    return [
        ("malformed-json", guides, b'{"url": "https://a.b", "user_id": '),
        ("not-an-object", guides, b"[1, 2]"),
        ("wrong-type", guides, {"url": "https://a.b", "user_id": "me"}),
        ("bool-user", guides, {"url": "https://a.b", "user_id": True}),
        ("huge-user", guides, {"url": "https://a.b", "user_id": 2**70}),
        ("not-a-url", guides, {"url": "ftp://a.b", "user_id": user_id}),
        ("missing-field", guides, {"url": "https://a.b"}),
        ("unknown-field", guides, {"url": "https://a.b", "user_id": user_id, "name": "x"}),
        ("bad-code", "/api/v3/maps/bad!/guides", {"url": "https://a.b", "user_id": user_id}),
        ("oversize", guides, {"url": "https://a.b/" + "x" * 1_100_000, "user_id": user_id}),
        ("newsfeed-unknown-type", "/api/v3/newsfeed", {"type": "nope"}),
        ("newsfeed-missing-tag", "/api/v3/newsfeed", {"title": "a", "content": "b"}),
        (
            "newsfeed-unknown-field",
            "/api/v3/newsfeed",
            {"type": "announcement", "title": "a", "content": "b", "extra": 1},
        ),
        (
            "notification-bad-type",
            "/api/v3/notifications/events",
            {"user_id": user_id, "event_type": "nope", "title": "t", "body": "b"},
        ),
        ("xp-negative", xp, {"amount": -1, "type": "Other"}),
        ("xp-huge", xp, {"amount": 2**40, "type": "Other"}),
        ("xp-bad-type", xp, {"amount": 1, "type": "Bribe"}),
        ("xp-bad-user", "/api/v3/lootbox/users/0/xp", {"amount": 1, "type": "Other"}),
        ("job-context-half", xp, {"amount": 1, "type": "Other"}),
    ]


async def test_q25_bad_input_is_a_4xx_with_the_error_body_and_writes_nothing(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
) -> None:
    state = await guide_setup(owner)
    before = await counts(owner)
    for name, path, body in await _bad_requests(state.code, state.user_id):
        headers = {"X-Genji-Job": "00000000-0000-0000-0000-000000000000"}
        extra = headers if name == "job-context-half" else {}
        if isinstance(body, bytes):
            response = await api.post(
                path, content=body, headers={"Content-Type": "application/json", **extra}
            )
        else:
            response = await api.post(path, json=body, headers=extra)
        assert 400 <= response.status_code < 500, (name, response.status_code, response.text)
        assert set(response.json()) == {"error", "extra", "code"}, name
    assert (await api.get("/api/v3/newsfeed/99999999999")).status_code == 400
    assert await counts(owner) == before


async def test_q25_jobs_carry_only_traceparent_and_the_key_is_never_stored_or_logged(
    api: AsyncTestClient,  # type: ignore[type-arg]
    owner: asyncpg.Connection,
    make_key,  # type: ignore[no-untyped-def]
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = await guide_setup(owner)
    key = await make_key("maps:write", "xp:write", "newsfeed:write", "notifications:write")
    headers = {
        "X-API-KEY": key,
        "Cookie": "session=cookie-secret",
        "Authorization": "Bearer bearer-secret",
        "traceparent": TRACEPARENT,
    }
    caplog.set_level(logging.DEBUG)
    user_id = await seed.user(owner)
    requests = [
        (f"/api/v3/maps/{state.code}/guides", {"url": state.url, "user_id": state.user_id}),
        ("/api/v3/newsfeed", {"type": "announcement", "title": "a", "content": "b"}),
        (
            "/api/v3/notifications/events",
            {"user_id": user_id, "event_type": "xp_gain", "title": "t", "body": "b"},
        ),
        (f"/api/v3/lootbox/users/{user_id}/xp", {"amount": 1, "type": "Other"}),
        # A failing request is logged too: it must not log the key either.
        (f"/api/v3/maps/{state.code}/guides", {"url": state.url + "/", "user_id": state.user_id}),
    ]
    for path, body in requests:
        await api.post(path, json=body, headers=headers)

    jobs = await owner.fetch("SELECT id, action FROM jobs")
    assert {j["action"] for j in jobs} == {
        "api.xp.grant",
        "api.newsfeed.create",
        "api.notification.delivery",
    }
    for job in jobs:
        assert (await envelope_of(owner, job["id"]))["trace"] == {"traceparent": TRACEPARENT}
    stored = await owner.fetchval(
        "SELECT string_agg(convert_from(payload, 'UTF8'), ' ') FROM pgqueuer"
    )
    jobs_text = await owner.fetchval("SELECT string_agg(j::text, ' ') FROM jobs j")
    for secret in (key, "cookie-secret", "bearer-secret"):
        assert secret not in stored and secret not in jobs_text
        assert secret not in caplog.text
