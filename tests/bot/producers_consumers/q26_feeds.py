"""Q26 cases of the newsfeed, notifications, XP, and the linked-map continuation."""

from __future__ import annotations

from typing import Any

from tests.bot.q26_flow import Flow, Q26Case, channel


async def check_newsfeed(flow: Flow, _: Any) -> None:
    newsfeed_id = await flow.env.owner.fetchval(
        "SELECT max(id) FROM public.newsfeed WHERE event_type = 'announcement'"
    )
    job = await flow.consumed_job("api.newsfeed.create", key=f"newsfeed:create:{newsfeed_id}")
    flow.sent_once(job, channel(flow.channels.newsfeed))


async def check_notification(flow: Flow, user_id: int) -> None:
    event_id = await flow.env.owner.fetchval(
        "SELECT id FROM notifications.events WHERE user_id = $1", user_id
    )
    job = await flow.consumed_job(
        "api.notification.delivery", key=f"notification:delivery:{event_id}"
    )
    flow.sent_once(job, f"dm:{user_id}")
    rows = await flow.env.owner.fetch(
        "SELECT d.channel, d.status FROM notifications.delivery_log d "
        "JOIN notifications.events e ON e.id = d.event_id WHERE e.user_id = $1",
        user_id,
    )
    assert [(row["channel"], row["status"]) for row in rows] == [("discord_dm", "delivered")]


async def check_xp_posted(flow: Flow, user_id: int) -> None:
    """The user's one XP grant is announced in the XP channel."""
    grant_id = await flow.env.owner.fetchval(
        "SELECT id FROM lootbox.xp_grants WHERE user_id = $1", user_id
    )
    job = await flow.consumed_job("api.xp.grant", key=f"xp:grant:{grant_id}")
    flow.sent_once(job, channel(flow.channels.xp))


async def _linked_check(flow: Flow, codes: tuple[str, str]) -> None:
    official, _ = codes
    # The copy's playtest thread first (the continuation's dependency), then the announcement.
    await flow.consumed_job("api.playtest.create")
    thread_id = await flow.env.owner.fetchval(
        "SELECT p.thread_id FROM playtests.meta p JOIN core.maps m ON m.id = p.map_id "
        "WHERE m.code = $1",
        official,
    )
    assert thread_id is not None
    await flow.consumed_job("map.linked.newsfeed.requested")
    entry = await flow.env.owner.fetchrow(
        "SELECT id, payload->>'playtest_id' AS playtest_id FROM public.newsfeed "
        "WHERE event_type = 'linked_map' AND payload->>'official_code' = $1",
        official,
    )
    assert entry is not None and int(entry["playtest_id"]) == thread_id
    job = await flow.consumed_job("api.newsfeed.create", key=f"newsfeed:create:{entry['id']}")
    flow.sent_once(job, channel(flow.channels.newsfeed))


CASES = [
    Q26Case(
        "api.newsfeed.create",
        lambda flow: flow.produce("newsfeed-create"),
        check_newsfeed,
    ),
    Q26Case(
        "api.notification.delivery",
        lambda flow: flow.produce("notification-create"),
        check_notification,
    ),
    Q26Case("api.xp.grant", lambda flow: flow.produce("xp-grant"), check_xp_posted),
    Q26Case(
        "map.linked.newsfeed.requested",
        lambda flow: flow.produce("map-link-clone-playtest"),
        _linked_check,
    ),
]
