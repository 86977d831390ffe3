"""The stand-in answers the real discord.py 2.7 client the way Discord does."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import aiohttp
import discord
import httpx
import pytest
from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.discord_standin.pointing import discord_py_pointed_at
from genji_devstack.discord_standin.seed import world_for_bot
from genji_devstack.discord_standin.server import DiscordStandIn

from .standin_bot import SETTINGS, StandInBot

SEND = "POST /channels/{channel_id}/messages"
CHANNEL = SETTINGS.channels.completions
OTHER = SETTINGS.channels.newsfeed
USER = 300_000_000_000_000_001
WITHIN = 5.0


def messageable(bot: StandInBot, channel_id: int = CHANNEL) -> discord.TextChannel:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_repeated_nonce_returns_the_stored_message(
    bot: StandInBot, control: StandInControl
) -> None:
    channel = messageable(bot)
    first = await channel.send("once", nonce="job-1")
    again = await channel.send("once", nonce="job-1")
    assert again.id == first.id
    assert await control.nonce_counts(CHANNEL) == {"job-1": 1}
    stored = await control.messages(CHANNEL)
    assert [m["content"] for m in stored] == ["once"]


async def test_a_lost_reply_still_stores_and_the_retry_finds_it(
    bot: StandInBot, control: StandInControl
) -> None:
    channel = messageable(bot)
    await control.add_fault(SEND, "lose-reply", channel_id=CHANNEL)
    with pytest.raises((aiohttp.ClientError, OSError)):
        await channel.send("maybe", nonce="job-2")
    stored = await control.messages(CHANNEL)
    assert [m["nonce"] for m in stored] == ["job-2"]
    retried = await channel.send("maybe", nonce="job-2")
    assert retried.id == int(stored[0]["id"])
    assert await control.nonce_counts(CHANNEL) == {"job-2": 1}


async def test_discord_limits_answer_invalid_form_body(bot: StandInBot) -> None:
    channel = messageable(bot)
    embed = discord.Embed(title="t").add_field(name="n", value="x" * 1025)
    with pytest.raises(discord.HTTPException) as raised:
        await channel.send(embed=embed)
    assert (raised.value.status, raised.value.code) == (400, 50035)
    assert "embeds.0.fields.0.value" in raised.value.text
    with pytest.raises(discord.HTTPException) as empty:
        await channel.send(content="   ")
    assert (empty.value.status, empty.value.code) == (400, 50006)
    with pytest.raises(discord.NotFound) as unknown:
        await bot.get_partial_messageable(123_456_789_012_345_678).send("x")
    assert unknown.value.code == 10003


async def test_a_denied_channel_and_closed_dms_are_forbidden(
    bot: StandInBot, control: StandInControl
) -> None:
    await control.deny_channel(CHANNEL, 50001)
    with pytest.raises(discord.Forbidden) as denied:
        await messageable(bot).send("no")
    assert denied.value.code == 50001
    await control.allow_channel(CHANNEL)
    await messageable(bot).send("yes")

    user = await bot.fetch_user(USER)
    dm = await user.create_dm()
    assert dm.recipient is not None and dm.recipient.id == USER
    await dm.send("hello")
    await control.set_dms(USER, open=False)
    with pytest.raises(discord.Forbidden) as closed:
        await dm.send("hello again")
    assert closed.value.code == 50007


async def test_rate_limits_are_waited_out_or_raised(
    bot: StandInBot, control: StandInControl
) -> None:
    channel = messageable(bot)
    await control.add_fault(SEND, "ratelimit", retry_after=0.05)
    sent = await channel.send("after a short wait")
    assert sent.content == "after a short wait"
    assert (await control.faults())[0]["fired"] == 1
    await control.add_fault(SEND, "ratelimit", retry_after=60.0)
    with pytest.raises(discord.RateLimited) as raised:
        await channel.send("too long")
    assert raised.value.retry_after == 60.0
    await control.add_fault(SEND, "status", status=500, code=0, times=1)
    # discord.py repeats a 500 on its own; the second attempt is answered.
    assert (await channel.send("after a 500")).content == "after a 500"


async def test_history_after_pages_oldest_first(bot: StandInBot) -> None:
    channel = messageable(bot, OTHER)
    sent = [await channel.send(f"m{n}") for n in range(6)]
    seen = [m.id async for m in channel.history(after=sent[1], oldest_first=True, limit=None)]
    assert seen == [m.id for m in sent[2:]]
    newest = [m.id async for m in channel.history(limit=2)]
    assert newest == [sent[5].id, sent[4].id]
    paged = [m.id async for m in channel.history(after=sent[0], oldest_first=True, limit=3)]
    assert paged == [m.id for m in sent[1:4]]
    # A time reads as the last snowflake of its millisecond, so messages sent in sent[3]'s
    # millisecond are not after it.
    since = [m.id async for m in channel.history(after=sent[3].created_at, oldest_first=True)]
    assert since == [m.id for m in sent if m.created_at > sent[3].created_at]


async def test_forum_threads_with_tags_archive_and_lock(
    bot: StandInBot, control: StandInControl
) -> None:
    forum = bot.get_channel(SETTINGS.channels.playtest_forum)
    assert isinstance(forum, discord.ForumChannel)
    wanted = [tag for tag in forum.available_tags if tag.name == "Open"]
    created = await forum.create_thread(name="Map 1", content="starter", applied_tags=wanted)
    assert created.thread.id == created.message.id
    assert created.thread.owner_id == bot.user.id if bot.user else False
    assert [tag.id for tag in created.thread.applied_tags] == [wanted[0].id]
    guild = bot.get_guild(SETTINGS.guild_id)
    assert guild is not None
    assert [t.id for t in await guild.active_threads()] == [created.thread.id]
    await created.thread.edit(archived=True, locked=True)
    state = await control.state()
    assert state["threads"][0]["thread_metadata"]["archived"] is True
    assert state["threads"][0]["thread_metadata"]["locked"] is True
    assert await guild.active_threads() == []
    fetched = await bot.fetch_channel(created.thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.locked
    with pytest.raises(discord.HTTPException) as bad:
        await forum.create_thread(name="x" * 101, content="starter")
    assert bad.value.code == 50035


async def test_roles_are_added_and_removed(bot: StandInBot, control: StandInControl) -> None:
    guild = bot.get_guild(SETTINGS.guild_id)
    assert guild is not None
    role = SETTINGS.skill_roles.jumper
    member = await guild.fetch_member(USER)
    await member.add_roles(discord.Object(id=role))
    assert role in {r.id for r in (await guild.fetch_member(USER)).roles}
    await member.remove_roles(discord.Object(id=role))
    assert role not in {r.id for r in (await guild.fetch_member(USER)).roles}
    with pytest.raises(discord.NotFound) as unknown_role:
        await member.add_roles(discord.Object(id=42_000_000_000_000_000))
    assert unknown_role.value.code == 10011
    await control.member_absent(USER)
    with pytest.raises(discord.NotFound) as gone:
        await guild.fetch_member(USER)
    assert gone.value.code == 10007


async def test_a_resumable_close_resumes_the_session(
    bot: StandInBot, control: StandInControl
) -> None:
    before = await control.gateway()
    assert await control.close_gateway(4000)
    await asyncio.wait_for(bot.events.resumed.wait(), WITHIN)
    after = await control.gateway()
    assert after["readies"] == before["readies"] == 1
    assert after["resumed"] == 1 and after["connected"]
    assert after["session_id"] == before["session_id"]
    assert (await messageable(bot).send("still here")).content == "still here"


async def test_a_reconnect_request_resumes_too(bot: StandInBot, control: StandInControl) -> None:
    assert await control.reconnect_gateway()
    await asyncio.wait_for(bot.events.resumed.wait(), WITHIN)
    assert (await control.gateway())["readies"] == 1


async def test_an_authentication_close_ends_the_client(
    bot: StandInBot, control: StandInControl
) -> None:
    assert bot.task is not None
    await control.close_gateway(4004)
    with pytest.raises(discord.ConnectionClosed) as raised:
        await asyncio.wait_for(bot.task, WITHIN)
    assert raised.value.code == 4004


PRESS = "standin:press:(?P<n>[0-9]+)"


class PressButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PRESS):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Press", custom_id=f"standin:press:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PressButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(f"pressed {self.n}", ephemeral=True)


async def test_a_press_reaches_a_dynamic_item_and_its_answers_are_recorded(
    bot: StandInBot, control: StandInControl, standin: DiscordStandIn
) -> None:
    bot.add_dynamic_items(PressButton)
    view = discord.ui.View(timeout=None)
    view.add_item(PressButton(7))
    view.stop()
    card = await messageable(bot).send("card", view=view)
    interaction_id, token = await control.press(
        channel_id=CHANNEL, message_id=card.id, custom_id="standin:press:7", user_id=USER
    )
    record = await control.wait_interaction(interaction_id, lambda i: bool(i["followups"]))
    assert record["callback_type"] == 5
    assert record["followups"][0]["content"] == "pressed 7"
    assert record["followups"][0]["flags"] & 64
    seen = await asyncio.wait_for(bot.events.interactions.get(), WITHIN)
    assert seen.id == interaction_id and seen.user.id == USER
    async with httpx.AsyncClient() as http:
        again = await http.post(
            f"{standin.url}/api/v10/interactions/{interaction_id}/{token}/callback",
            json={"type": 6},
        )
    assert again.status_code == 400 and again.json()["code"] == 40060
    assert [m["content"] for m in await control.messages(CHANNEL)] == ["card"]


async def test_a_wrong_token_fails_login(standin: DiscordStandIn) -> None:
    with discord_py_pointed_at(standin.url):
        client = discord.Client(intents=discord.Intents.default())
        async with client:
            with pytest.raises(discord.LoginFailure):
                await client.login("not-the-token")


async def test_a_non_resumable_invalid_session_identifies_again(
    bot: StandInBot, control: StandInControl
) -> None:
    bot.events.ready.clear()
    assert await control.invalid_session(resumable=False)
    await asyncio.wait_for(bot.events.ready.wait(), WITHIN)
    state = await control.gateway()
    assert state["readies"] == 2 and state["connected"]
    assert (await messageable(bot).send("after identify")).content == "after identify"


async def test_interaction_tokens_expire_and_followups_need_an_answer() -> None:
    world = world_for_bot(SETTINGS)
    async with (
        DiscordStandIn(world, interaction_timeout=0.05) as standin,
        StandInControl(standin.url) as control,
        httpx.AsyncClient(base_url=f"{standin.url}/api/v10") as http,
    ):
        interaction_id, token = await control.submit_modal(
            channel_id=CHANNEL, custom_id="form", user_id=USER, values={"reason": "slow"}
        )
        early = await http.post(f"/webhooks/{SETTINGS.bot_user_id}/{token}", json={"content": "x"})
        assert early.status_code == 404 and early.json()["code"] == 10015
        await asyncio.sleep(0.1)  # past the (shortened) 3 s answer window
        late = await http.post(f"/interactions/{interaction_id}/{token}/callback", json={"type": 6})
        assert late.status_code == 404 and late.json()["code"] == 10062
        record = await control.interaction(interaction_id)
        assert record["type"] == 5 and not record["acknowledged"]
