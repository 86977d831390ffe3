"""Producers of guides, newsfeed entries, notifications and direct XP grants."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support import seed
from tests.support.seed_guides import GuideSetup, guide_setup

from .case import ProducerCase, ProducerEnv


async def _guide_setup(env: ProducerEnv) -> GuideSetup:
    return await guide_setup(env.owner)


async def _submit_guide(env: ProducerEnv, state: GuideSetup) -> httpx.Response:
    return await env.api.post(
        f"/api/v3/maps/{state.code}/guides", json={"url": state.url, "user_id": state.user_id}
    )


async def _nothing(env: ProducerEnv) -> None:
    return None


async def _create_newsfeed(env: ProducerEnv, _: Any) -> httpx.Response:
    return await env.api.post(
        "/api/v3/newsfeed", json={"type": "announcement", "title": "Hi", "content": "News"}
    )


async def _user(env: ProducerEnv) -> int:
    return await seed.user(env.owner)


async def _create_notification(env: ProducerEnv, user_id: int) -> httpx.Response:
    return await env.api.post(
        "/api/v3/notifications/events",
        json={
            "user_id": user_id,
            "event_type": "verification_approved",
            "title": "Verified",
            "body": "Your run was verified.",
        },
    )


async def _grant_xp(env: ProducerEnv, user_id: int) -> httpx.Response:
    return await env.api.post(
        f"/api/v3/lootbox/users/{user_id}/xp", json={"amount": 10, "type": "Other"}
    )


CASES = [
    ProducerCase(
        name="guide-submit",
        events=frozenset({"api.xp.grant", "api.newsfeed.create"}),
        setup=_guide_setup,
        act=_submit_guide,
    ),
    ProducerCase(
        name="newsfeed-create",
        events=frozenset({"api.newsfeed.create"}),
        setup=_nothing,
        act=_create_newsfeed,
    ),
    ProducerCase(
        name="notification-create",
        events=frozenset({"api.notification.delivery"}),
        setup=_user,
        act=_create_notification,
    ),
    ProducerCase(
        name="xp-grant",
        events=frozenset({"api.xp.grant"}),
        setup=_user,
        act=_grant_xp,
    ),
]
