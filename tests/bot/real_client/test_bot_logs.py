"""The real bot, `python -m genji_bot`, logs in the one format, and its alert supervisor's polls
of the API write no line at INFO (httpx's per-request lines are not written)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from genji_devstack.discord_standin.control import StandInControl

from tests.bot.bot_stack import BotStack, eventually
from tests.support import seed_alerts as sa

from .discord_bot import running_bot

pytestmark = pytest.mark.queue

TEXT_LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+ \S"
)


async def test_the_real_bot_logs_one_format_and_no_line_per_alert_poll(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    job = await sa.held(stack.owner, sa.BOT_EVENT, "logged-alert")
    channel = stack.settings.channels.job_alerts
    environment = {"JOB_ALERT_POLL_SECONDS": "0.2"}
    async with running_bot(stack, discord, tmp_path / "bot.log", environment) as bot:
        # The card is there: the supervisor polled the feed and recorded it through the API.
        async def carded() -> bool:
            return any(str(job) in json.dumps(m) for m in await discord.messages(channel))

        await eventually(carded, 30, "the alert card of the held job")
    lines = bot.log_path.read_text().splitlines()
    assert lines
    assert [line for line in lines if not TEXT_LINE.match(line)] == []
    assert [line for line in lines if "HTTP Request" in line or " httpx " in line] == []
    assert stack.bot_key not in "\n".join(lines)
