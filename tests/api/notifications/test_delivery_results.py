"""Per-channel delivery outcomes (notifications.delivery_log) and the preference read."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support import seed

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]


async def _event(api: Client, user_id: int) -> int:
    response = await api.post(
        "/api/v3/notifications/events",
        json={"user_id": user_id, "event_type": "quest_complete", "title": "Q", "body": "B"},
    )
    assert response.status_code == 201, response.text
    event_id: int = response.json()["id"]
    return event_id


async def test_a_delivered_channel_stays_delivered(
    api: Client,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    event_id = await _event(api, await seed.user(owner))
    path = f"/api/v3/notifications/events/{event_id}/delivery-result"
    failed = await api.post(path, json={"channel": "discord_dm", "status": "failed"})
    delivered = await api.post(path, json={"channel": "discord_dm", "status": "delivered"})
    late = await api.post(
        path, json={"channel": "discord_dm", "status": "failed", "error_message": "x"}
    )
    assert [r.status_code for r in (failed, delivered, late)] == [200, 200, 200]
    assert late.json()["status"] == "delivered"
    rows = await owner.fetch(
        "SELECT channel, status FROM notifications.delivery_log WHERE event_id = $1", event_id
    )
    assert [(r["channel"], r["status"]) for r in rows] == [("discord_dm", "delivered")]
    missing = await api.post(
        f"/api/v3/notifications/events/{event_id + 1000}/delivery-result",
        json={"channel": "discord_dm", "status": "delivered"},
    )
    assert missing.status_code == 404


async def test_preferences_fall_back_to_the_event_types_defaults(
    api: Client,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    await owner.execute(
        "INSERT INTO notifications.preferences (user_id, event_type, channel, enabled) "
        "VALUES ($1, 'xp_gain', 'discord_ping', false)",
        user_id,
    )
    xp = (await api.get(f"/api/v3/notifications/users/{user_id}/preferences/xp_gain")).json()
    rank = (await api.get(f"/api/v3/notifications/users/{user_id}/preferences/rank_up")).json()
    assert xp["channels"] == {"discord_dm": False, "discord_ping": False, "web": True}
    assert rank["channels"] == {"discord_dm": False, "discord_ping": True, "web": True}
    bad = await api.get(f"/api/v3/notifications/users/{user_id}/preferences/nope")
    assert bad.status_code == 400
