"""The real bot's alert supervisor against the stand-in of Discord: cards Discord refuses to
edit do not stop the alerts behind them."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import pytest
from genji_devstack.discord_standin.control import StandInControl
from genji_queue.recovery_discard import recovery_discard
from genji_sdk.recovery import DiscardRequest, OperatorContext

from tests.bot.bot_stack import BotStack, eventually
from tests.support import seed_alerts as sa

from .discord_bot import running_bot

pytestmark = pytest.mark.queue

POLL = {"JOB_ALERT_POLL_SECONDS": "0.2"}
DISCARD = DiscardRequest(
    expected_generation=0,
    idempotency_key="discard-ended-behind",
    actor_id=sa.OPERATOR,
    reason="no longer wanted",
    context=OperatorContext(source="cli"),
)


async def until_carded(discord: StandInControl, channel: int, job: UUID) -> None:
    async def carded() -> bool:
        return any(str(job) in json.dumps(m) for m in await discord.messages(channel))

    await eventually(carded, 30, f"the alert card of job {job} in channel {channel}")


async def test_a_card_left_in_a_channel_the_bot_lost_is_sent_again_and_the_alerts_after_it_arrive(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    old = stack.settings.channels.job_alerts
    new = stack.settings.channels.completions
    first = await sa.held(stack.owner, sa.BOT_EVENT, "left-behind")
    ended = await sa.held(stack.owner, sa.BOT_EVENT, "ended-behind")
    async with running_bot(stack, discord, tmp_path / "first.log", POLL):
        await until_carded(discord, old, first)
        await until_carded(discord, old, ended)
    in_old = await discord.messages(old)

    # Alerts move to another channel and the bot loses the old one. The first job is retried
    # and held again, so its card must change; a second job is held after it.
    await discord.deny_channel(old, code=50001)
    await sa.retry(stack.owner, first)
    await sa.hold(stack.owner, first, "again")
    # Another is discarded: its card there is not sent again, as none is sent for a finished job.
    async with stack.owner.transaction():
        await recovery_discard(stack.owner, ended, DISCARD)
    second = await sa.held(stack.owner, sa.BOT_EVENT, "behind-it")
    environment = {**POLL, "JOB_ALERTS_CHANNEL_ID": str(new)}
    async with running_bot(stack, discord, tmp_path / "second.log", environment) as bot:
        await until_carded(discord, new, second)
        await until_carded(discord, new, first)
    log = bot.log()
    assert f"the alert card of job {first} was left in channel {old}" in log
    assert f"the alert card of job {ended} was left in channel {old}" in log
    assert not any(str(ended) in json.dumps(m) for m in await discord.messages(new))
    assert await discord.messages(old) == in_old
