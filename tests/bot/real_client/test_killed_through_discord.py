"""Q05 with the real client: the bot is SIGKILLed while Discord holds its send of a completion
card (Discord stores the message after the bot died, so no id was recorded), and the next one
once the verdict's mutations and sends are done, while Discord holds the removal of the review
card. The last bot finishes the verdict: the send is settled by its nonce, the removal found
done, and nothing is posted or granted twice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from genji_devstack.discord_standin.control import StandInControl

from tests.bot import completion_flow as flow
from tests.bot.bot_stack import BotProcess, BotStack, eventually

from .discord_bot import running_bot, until_job, until_ready

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

SEND = "POST /channels/{channel_id}/messages"
DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"


async def kill_when_frozen(discord: StandInControl, bot: BotProcess, what: str) -> None:
    """SIGKILL the bot once Discord holds its request, then let Discord complete it."""

    async def frozen() -> bool:
        return [f["fired"] for f in await discord.faults()] == [1]

    await eventually(frozen, 30, f"Discord to hold {what}")
    bot.kill()
    assert bot.process.returncode == -9, bot.log()
    await discord.clear_faults()


@pytest.fixture
def killed() -> Iterator[list[BotProcess]]:
    started: list[BotProcess] = []
    yield started
    for bot in started:
        bot.kill()


async def test_q05_bots_killed_midway_through_a_send_and_after_the_effects_are_resumed_without_repeats(
    stack: BotStack, discord: StandInControl, tmp_path: Path, killed: list[BotProcess]
) -> None:
    await stack.owner.execute("UPDATE queue_settings SET stale_heartbeat = interval '1.5 s'")
    completions = stack.settings.channels.completions
    queue = stack.settings.channels.verification_queue
    run = await flow.player_on_new_map(stack)
    bot = BotProcess.start(stack, tmp_path / "killed.log", discord_url=discord.url)
    killed.append(bot)
    await until_ready(stack, discord, bot)
    submitted = await flow.submit(stack, run, 100.0)
    await until_job(stack, submitted["job_status"]["id"], "succeeded")
    await discord.add_fault(SEND, "freeze", channel_id=completions)
    job_id = await flow.verdict(stack, submitted["completion_id"], run, verified=True)
    await kill_when_frozen(discord, bot, "the completion card's send")

    # Discord stores the card: delivered, but no bot is left to record its id.
    async def stored() -> bool:
        return len(await discord.messages(completions)) == 1

    await eventually(stored, 10, "Discord to store the card sent by the killed bot")
    assert await flow.bindings(stack, job_id) == {
        f"card:completion@channel:{completions}": "intended"
    }
    assert "xp:verification" not in await flow.receipts(stack, job_id)

    # The next bot is killed after the verdict's effects, while it removes the review card.
    await discord.add_fault(DELETE, "freeze", channel_id=queue)
    bot = BotProcess.start(stack, tmp_path / "killed-after.log", discord_url=discord.url)
    killed.append(bot)
    await kill_when_frozen(discord, bot, "the review card's removal")
    assert set(flow.VERIFIED_RECEIPTS) - set(await flow.receipts(stack, job_id)) == {
        "newsfeed:role:Pro",
        "notification:skill-role:Pro",
    }

    async def removed() -> bool:
        return await discord.messages(queue) == []

    await eventually(removed, 10, "Discord to remove the review card for the killed bot")
    assert await stack.status(job_id) != "succeeded"

    async with running_bot(stack, discord, tmp_path / "resumed.log"):
        done = await until_job(stack, job_id, "succeeded", "failed")
        assert done["status"] == "succeeded", done
        ledgers = await flow.ledgers(stack, run)

    assert ledgers == flow.first_world_record(run)
    assert await flow.receipts(stack, job_id) == flow.VERIFIED_RECEIPTS
    [card] = await discord.messages(completions)
    assert await discord.messages(queue) == []
    assert await discord.nonce_counts(completions) == {card["nonce"]: 1}
    assert (await flow.completion_row(stack, submitted["completion_id"]))["message_id"] == int(
        card["id"]
    )
    assert (await flow.bindings(stack, job_id))[
        f"card:completion@channel:{completions}"
    ] == "completed"
