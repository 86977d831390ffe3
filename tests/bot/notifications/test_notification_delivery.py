"""api.notification.delivery through the real route: each destination delivered and recorded."""

from __future__ import annotations

import pytest

from tests.bot.bot_stack import BotStack
from tests.bot.notification_seed import bindings, delivery_log, notification

pytestmark = pytest.mark.queue


async def test_a_quest_notice_is_sent_by_dm_and_in_the_xp_channel(stack: BotStack) -> None:
    created = await notification(stack)
    async with stack.worker():
        await stack.until_status(created.job_id, "succeeded")

    assert await delivery_log(stack, created.event_id) == {
        "discord_dm": ("delivered", None),
        "discord_ping": ("delivered", None),
    }
    assert len(stack.recorder.sends(destination=f"dm:{created.user_id}")) == 1
    xp = stack.settings.channels.xp
    assert len(stack.recorder.sends(destination=f"channel:{xp}")) == 1
    assert await bindings(stack, created.job_id) == {
        "delivery:discord_dm": "completed",
        "delivery:discord_ping": "completed",
    }


async def test_other_pings_are_skipped_and_recorded_as_skipped(stack: BotStack) -> None:
    created = await notification(stack, "rank_up")  # ping by default, done where it happens
    async with stack.worker():
        await stack.until_status(created.job_id, "succeeded")

    assert await delivery_log(stack, created.event_id) == {"discord_ping": ("skipped", None)}
    assert stack.recorder.sends(job_id=created.job_id) == []
    assert await bindings(stack, created.job_id) == {"delivery:discord_ping": "skipped"}
