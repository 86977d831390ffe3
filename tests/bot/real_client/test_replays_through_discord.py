"""Replays of the real client's jobs through the stand-in of Discord: what an earlier execution
did, in the database and in Discord's channels, is reused and never done again."""

from __future__ import annotations

from pathlib import Path

import pytest
from genji_bot.features.notifications import REFUSED
from genji_bot.settings import Channels
from genji_devstack.discord_standin.control import StandInControl

from tests.bot import completion_flow as flow
from tests.bot.bot_stack import BotStack
from tests.bot.notification_seed import bindings, delivery_log, handler_failures, notification
from tests.support.seed_guides import guide_setup

from .discord_bot import operator_retry, running_bot, until_job

pytestmark = pytest.mark.queue

CHANNELS = Channels()
SEND = "POST /channels/{channel_id}/messages"
DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"


async def counted(discord: StandInControl, *channels: int) -> dict[int, int]:
    return {channel: len(await discord.messages(channel)) for channel in channels}


async def once_each(discord: StandInControl, channel: int) -> None:
    """Every nonce the channel's messages were sent with created one message."""
    assert set((await discord.nonce_counts(channel)).values()) <= {1}


async def test_q10_a_verdict_replayed_after_discord_failed_its_cleanup_repeats_nothing(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    run = await flow.player_on_new_map(stack)
    async with running_bot(stack, discord, tmp_path / "bot.log") as bot:
        submitted = await flow.submit(stack, run, 100.0)
        await until_job(stack, submitted["job_status"]["id"], "succeeded")
        # Removing the review card comes after the verdict's sends and mutations: Discord fails
        # it once, so the job runs again after all of them.
        await discord.add_fault(
            DELETE, "status", channel_id=CHANNELS.verification_queue, status=503
        )
        job_id = await flow.verdict(stack, submitted["completion_id"], run, verified=True)
        done = await until_job(stack, job_id, "succeeded", "failed")
        assert done["status"] == "succeeded", done
        ledgers = await flow.ledgers(stack, run)
    assert [f["fired"] for f in await discord.faults()] == [1]
    assert "discord unavailable" in bot.log()

    assert ledgers == flow.first_world_record(run)
    assert await flow.receipts(stack, job_id) == flow.VERIFIED_RECEIPTS
    # The completion card, and in the XP channel the mastery card and the grant's notice.
    assert await counted(
        discord, CHANNELS.verification_queue, CHANNELS.completions, CHANNELS.xp
    ) == {CHANNELS.verification_queue: 0, CHANNELS.completions: 1, CHANNELS.xp: 2}
    [card] = await discord.messages(CHANNELS.completions)
    row = await flow.completion_row(stack, submitted["completion_id"])
    assert row["message_id"] == int(card["id"])
    assert await flow.bindings(stack, job_id) == {
        f"card:completion@channel:{CHANNELS.completions}": "completed",
        f"card:mastery@channel:{CHANNELS.xp}": "completed",
    }
    await once_each(discord, CHANNELS.xp)


async def sends_answered(discord: StandInControl) -> dict[str, int]:
    """How often Discord answered a message send with each status."""
    requests = (await discord.state())["requests"]
    answered: dict[str, int] = requests.get(SEND, {})
    return answered


async def test_q12_a_closed_dm_fails_for_good_and_a_replay_after_the_ping_failed_sends_it_once(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    created = await notification(stack)  # quest_complete: the user's DMs and the XP channel
    await discord.set_dms(created.user_id, open=False)
    await discord.deny_channel(CHANNELS.xp, code=50013)
    async with running_bot(stack, discord, tmp_path / "bot.log"):
        held = await until_job(stack, created.job_id, "failed", "succeeded")
        assert (held["status"], held["error_code"]) == ("failed", "RefusedEffect"), held
        assert await delivery_log(stack, created.event_id) == {"discord_dm": ("failed", REFUSED)}
        # Discord was asked once for each: the DM refused for good, the ping refused for now.
        assert await sends_answered(discord) == {"403": 2}
        await discord.allow_channel(CHANNELS.xp)
        await operator_retry(stack, created.job_id, 0)
        done = await until_job(stack, created.job_id, "succeeded", "failed")
    assert done["status"] == "succeeded", done

    # The replay read the DM's settled failure instead of asking Discord again.
    assert await sends_answered(discord) == {"403": 2, "200": 1}
    [dm] = (await discord.state())["dms"]
    assert (dm["user_id"], dm["messages"]) == (str(created.user_id), [])
    [ping] = await discord.messages(CHANNELS.xp)
    assert ping["content"].startswith(f"<@{created.user_id}> ")
    assert await delivery_log(stack, created.event_id) == {
        "discord_dm": ("failed", REFUSED),
        "discord_ping": ("delivered", None),
    }
    assert await bindings(stack, created.job_id) == {
        "delivery:discord_dm": "failed",
        "delivery:discord_ping": "completed",
    }
    assert await handler_failures(stack, created.job_id) == 0


async def test_q25_a_guide_submitted_twice_is_announced_and_rewarded_once_in_discord(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    state = await guide_setup(stack.owner)
    body = {"url": state.url, "user_id": state.user_id}
    first = await stack.http.post(f"/maps/{state.code}/guides", json=body)
    again = await stack.http.post(f"/maps/{state.code}/guides", json=body)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json() == body
    # The XP notice's reply is lost once: the bot repeats it.
    await discord.add_fault(SEND, "lose-reply", channel_id=CHANNELS.xp)
    async with running_bot(stack, discord, tmp_path / "bot.log"):
        jobs = await stack.owner.fetch(
            "SELECT id, action FROM jobs WHERE action IN ('api.newsfeed.create', 'api.xp.grant')"
        )
        assert sorted(row["action"] for row in jobs) == ["api.newsfeed.create", "api.xp.grant"]
        for row in jobs:
            assert (await until_job(stack, str(row["id"]), "succeeded", "failed"))[
                "status"
            ] == "succeeded"
        await stack.until_quiet()
    assert [f["fired"] for f in await discord.faults()] == [1]

    totals = {
        table: await stack.owner.fetchval(f"SELECT count(*) FROM {table}")
        for table in ("maps.guides", "lootbox.xp_grants", "public.newsfeed")
    }
    assert totals == {"maps.guides": 1, "lootbox.xp_grants": 1, "public.newsfeed": 1}
    assert await counted(discord, CHANNELS.newsfeed, CHANNELS.xp) == {
        CHANNELS.newsfeed: 1,
        CHANNELS.xp: 1,
    }
    [announced] = await discord.messages(CHANNELS.newsfeed)
    assert [(e["title"], e["url"]) for e in announced["embeds"]] == [("New Guide!", state.url)]
    [notice] = await discord.messages(CHANNELS.xp)
    assert notice["content"] == f"<@{state.user_id}> has gained **35 XP** (Guide)!"
