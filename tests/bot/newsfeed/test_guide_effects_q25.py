"""Q25, the bot's side: a guide submitted and retried with the same URL is posted, granted and
announced once, even when the consumer of its XP job is itself retried."""

from __future__ import annotations

import pytest

from tests.bot.bot_stack import BotStack
from tests.support.seed_guides import guide_setup

pytestmark = pytest.mark.queue


async def test_q25_a_retried_guide_is_announced_and_rewarded_once(stack: BotStack) -> None:
    state = await guide_setup(stack.owner)
    body = {"url": state.url, "user_id": state.user_id}
    first = await stack.http.post(f"/maps/{state.code}/guides", json=body)
    again = await stack.http.post(f"/maps/{state.code}/guides", json=body)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json() == body
    # The XP consumer fails once after its notice, so its job runs twice.
    stack.recorder.command("api.xp.grant:message", "fail:1")

    jobs = {
        row["action"]: str(row["id"])
        for row in await stack.owner.fetch(
            "SELECT id, action FROM jobs WHERE action IN ('api.newsfeed.create', 'api.xp.grant')"
        )
    }
    assert sorted(jobs) == ["api.newsfeed.create", "api.xp.grant"]
    async with stack.worker():
        for job_id in jobs.values():
            await stack.until_status(job_id, "succeeded")
        await stack.until_quiet()

    counted = {
        table: await stack.owner.fetchval(f"SELECT count(*) FROM {table}")
        for table in ("maps.guides", "lootbox.xp_grants", "public.newsfeed")
    }
    assert counted == {"maps.guides": 1, "lootbox.xp_grants": 1, "public.newsfeed": 1}
    assert [e["effect"] for e in stack.recorder.sends(job_id=jobs["api.newsfeed.create"])] == [
        f"newsfeed:{await stack.owner.fetchval('SELECT id FROM public.newsfeed')}"
    ]
    assert [e["effect"] for e in stack.recorder.sends(job_id=jobs["api.xp.grant"])] == [
        "message:xp"
    ]
    assert (
        await stack.owner.fetchval(
            "SELECT count(*) FROM notifications.events WHERE user_id = $1 AND event_type = 'xp_gain'",
            state.user_id,
        )
        == 1
    )
    assert (
        await stack.owner.fetchval(
            "SELECT count(*) FROM jobs WHERE action IN ('api.newsfeed.create', 'api.xp.grant')"
        )
        == 2
    )
    failed = [e for e in stack.recorder.recorder.events() if e["stage"] == "failed"]
    assert [(e["job_id"], e["effect"]) for e in failed] == [(jobs["api.xp.grant"], "message:xp")]
