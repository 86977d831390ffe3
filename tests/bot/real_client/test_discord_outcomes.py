"""How the real bot ends up when Discord rate-limits it for long, closes its gateway, refuses
its token, or when a setting Discord itself needs is missing (docs/effects.md, the bot's exit
statuses in genji_bot.__main__)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from genji_bot.discord.client import EXIT_LOGIN, MAX_RATELIMIT_WAIT
from genji_bot.settings import required_ids
from genji_devstack.discord_standin.control import StandInControl

from tests.bot.bot_stack import BotProcess, BotStack, eventually
from tests.support import seed

from .discord_bot import post_newsfeed, running_bot, until_job

pytestmark = pytest.mark.queue

SEND = "POST /channels/{channel_id}/messages"
LONG_LIMIT = 45.0


def announcement() -> dict[str, object]:
    return {"type": "announcement", "title": seed.new_code(), "content": "Maps updated"}


async def worker_rows(stack: BotStack, bot: BotProcess) -> int:
    rows: int = await stack.owner.fetchval(
        "SELECT count(*) FROM queue_workers WHERE owner = 'bot' AND pid = $1", bot.pid
    )
    return rows


async def exited(bot: BotProcess, within: float = 30) -> int:
    async def ended() -> bool:
        return bot.process.poll() is not None

    await eventually(ended, within, "the bot to exit")
    return bot.process.returncode


async def test_a_rate_limit_longer_than_the_clients_wait_defers_the_send_without_spending_the_budget(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    assert LONG_LIMIT > MAX_RATELIMIT_WAIT
    channel = stack.settings.channels.newsfeed
    await discord.add_fault(SEND, "ratelimit", channel_id=channel, retry_after=LONG_LIMIT)
    async with running_bot(stack, discord, tmp_path / "bot.log"):
        _, job_id = await post_newsfeed(stack, announcement())

        async def deferred() -> dict[str, object] | None:
            row = await stack.owner.fetchrow(
                "SELECT q.status, q.attempts, j.handler_failures, "
                "extract(epoch FROM q.execute_after - now()) AS wait "
                "FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = $1",
                job_id,
            )
            return dict(row) if row is not None and row["attempts"] >= 1 else None

        found = await eventually(deferred, 30, "the send to be deferred")
    assert [f["fired"] for f in await discord.faults()] == [1]
    assert (found["status"], found["attempts"], found["handler_failures"]) == ("queued", 1, 0)
    # Not before Discord's retry_after (less the time since it was written).
    assert LONG_LIMIT - 15 < float(found["wait"]) <= LONG_LIMIT, found  # type: ignore[arg-type]
    assert (await until_job(stack, job_id, "queued", "retrying"))["error_code"] is None
    assert await discord.messages(channel) == []
    # Nothing was sent, so the intent was released.
    bound = await stack.owner.fetchval(
        "SELECT count(*) FROM effect_bindings WHERE job_id = $1", job_id
    )
    assert bound == 0


async def test_a_resumable_gateway_close_resumes_and_a_closed_for_good_one_drains_and_exits_2(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    channel = stack.settings.channels.newsfeed
    async with running_bot(stack, discord, tmp_path / "bot.log") as bot:
        assert await discord.close_gateway(4000)

        async def resumed() -> bool:
            gateway = await discord.gateway()
            return bool(gateway["connected"]) and gateway["resumed"] >= 1

        await eventually(resumed, 30, "the bot to resume its gateway session")
        _, job_id = await post_newsfeed(stack, announcement())
        assert (await until_job(stack, job_id, "succeeded", "failed"))["status"] == "succeeded"
        assert len(await discord.messages(channel)) == 1

        assert await discord.close_gateway(4004)
        status = await exited(bot)
    log = bot.log()
    assert status == EXIT_LOGIN, log
    assert "Traceback" not in log, log
    assert "Discord closed the gateway with 4004" in log, log
    assert "bot worker stopped" in log, log
    assert await worker_rows(stack, bot) == 0, "the drained worker left its liveness row"
    assert (await discord.gateway())["identifies"] == 1


async def test_a_token_discord_refuses_exits_2_with_one_line_naming_it(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    refused = "not-a-token-discord-knows"
    bot = BotProcess.start(
        stack, tmp_path / "bot.log", {"DISCORD_TOKEN": refused}, discord_url=discord.url
    )
    try:
        status = await exited(bot)
    finally:
        bot.kill()
    log = bot.log()
    assert status == EXIT_LOGIN, log
    assert "Traceback" not in log, log
    assert refused not in log, "the token itself is never logged"
    named = [line for line in log.splitlines() if "DISCORD_TOKEN" in line]
    assert len(named) == 1 and "refused" in named[0], log
    assert await worker_rows(stack, bot) == 0


def test_a_missing_channel_id_with_a_token_for_discord_exits_2_with_one_line_naming_it() -> None:
    missing = "XP_CHANNEL_ID"
    assert missing in required_ids()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GENJI_", "DISCORD_"))}
    env.update({variable: str(10**18 + n) for n, variable in enumerate(required_ids())})
    env.update(
        RANK_ROLE_IDS=",".join(str(10**18 + 100 + n) for n in range(20)),
        PRESTIGE_ROLE_IDS=str(10**18 + 200),
        GENJI_API_KEY="unused",
        DISCORD_TOKEN="a-token-for-discord-itself",
    )
    del env[missing]
    done = subprocess.run(
        [sys.executable, "-m", "genji_bot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == EXIT_LOGIN, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()], done.stderr
    assert done.stderr.startswith(f"{missing} is not set"), done.stderr


async def test_a_gateway_closed_for_good_mid_job_drains_the_worker_and_exits_2_returning_the_job(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    channel = stack.settings.channels.newsfeed
    await discord.add_fault(SEND, "freeze", channel_id=channel)
    async with running_bot(stack, discord, tmp_path / "bot.log") as bot:
        _, job_id = await post_newsfeed(stack, announcement())

        async def sending() -> bool:
            return [f["fired"] for f in await discord.faults()] == [1]

        await eventually(sending, 30, "the bot to be sending the entry")
        assert await discord.close_gateway(4004)
        status = await exited(bot)
    await discord.clear_faults()
    log = bot.log()
    assert status == EXIT_LOGIN, log
    assert "Traceback" not in log, log
    assert "returning 1 unfinished jobs to the queue" in log, log
    assert await worker_rows(stack, bot) == 0, "the drained worker left its liveness row"
    row = await stack.owner.fetchrow(
        "SELECT q.status, j.handler_failures FROM jobs j "
        "JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = $1",
        job_id,
    )
    assert row is not None and (row["status"], row["handler_failures"]) == ("queued", 0), row
    # The interrupted send stays intended: the next bot settles it by its nonce.
    bound = await stack.owner.fetchval(
        "SELECT state FROM effect_bindings WHERE job_id = $1", job_id
    )
    assert bound == "intended"
