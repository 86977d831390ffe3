"""Q12: one notification destination succeeds and another fails. The delivered destination is
never sent again, a permanent failure keeps its classification and is not retried, and a
temporary failure is retried until it is delivered."""

from __future__ import annotations

import pytest
from genji_bot.features.notifications import REFUSED

from tests.bot.bot_stack import BotStack, eventually
from tests.bot.notification_seed import bindings, delivery_log, handler_failures, notification

pytestmark = pytest.mark.queue

EVENT = "api.notification.delivery"


async def test_q12_closed_dm_fails_for_good_while_the_ping_is_delivered_once(
    stack: BotStack,
) -> None:
    stack.recorder.command(f"{EVENT}:delivery:discord_dm", "forbidden")
    # The job is retried after both destinations were settled: nothing may be redone.
    stack.recorder.command(f"{EVENT}:delivery-result:discord_ping", "fail:1")
    created = await notification(stack)
    async with stack.worker():
        await stack.until_status(created.job_id, "succeeded")

    assert await handler_failures(stack, created.job_id) == 1
    assert await delivery_log(stack, created.event_id) == {
        "discord_dm": ("failed", REFUSED),
        "discord_ping": ("delivered", None),
    }
    assert stack.recorder.sends(destination=f"dm:{created.user_id}") == []
    assert len(stack.recorder.sends(job_id=created.job_id)) == 1  # the ping, once
    # Discord was asked for the DM once; the retry read its settled binding instead.
    assert len(stack.recorder.operations("refused")) == 1
    assert await bindings(stack, created.job_id) == {
        "delivery:discord_dm": "failed",
        "delivery:discord_ping": "completed",
    }


async def test_q12_a_ping_that_did_not_reach_discord_is_retried_and_the_dm_not_resent(
    stack: BotStack,
) -> None:
    stack.recorder.command(f"{EVENT}:delivery:discord_ping", "not-sent")
    created = await notification(stack)
    async with stack.worker():

        async def ping_refused_twice() -> bool:
            return stack.recorder.recorder.count("delivery:discord_ping", "start") >= 2

        await eventually(ping_refused_twice, 20, "the ping to be tried again")
        assert await delivery_log(stack, created.event_id) == {"discord_dm": ("delivered", None)}
        stack.recorder.command(f"{EVENT}:delivery:discord_ping", "complete")
        await stack.until_status(created.job_id, "succeeded")

    assert await handler_failures(stack, created.job_id) == 0  # an outage, not a failure
    assert await delivery_log(stack, created.event_id) == {
        "discord_dm": ("delivered", None),
        "discord_ping": ("delivered", None),
    }
    assert len(stack.recorder.sends(destination=f"dm:{created.user_id}")) == 1
    assert len(stack.recorder.sends(job_id=created.job_id)) == 2
