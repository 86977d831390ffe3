"""The bot's own Discord port (genji_bot.discord.port) against the stand-in: every operation
it uses, and its reading back of what it sent."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import discord
import pytest
from genji_bot.discord.port import DiscordPort
from genji_bot.effects.port import (
    Button,
    Channel,
    DirectMessage,
    EarlierAttemptAnswered,
    Embed,
    Field,
    Forbidden,
    Forward,
    Mentions,
    NewForumThread,
    Outgoing,
    Refused,
)
from genji_devstack.discord_standin.control import StandInControl
from genji_sdk.failures import DependencyUnavailable

from .standin_bot import SETTINGS, StandInBot

CHANNEL = SETTINGS.channels.completions
OTHER = SETTINGS.channels.newsfeed
FORUM = SETTINGS.channels.playtest_forum
USER = 300_000_000_000_000_002
ABSENT = 300_000_000_000_000_003
MISSING_PERMISSIONS = {"status": 403, "code": 50013, "message": "Missing Permissions"}


def _card() -> Outgoing:
    return Outgoing(
        content=f"<@{USER}> finished",
        embed=Embed(
            title="Completion",
            description="A run",
            fields=(Field(name="Time", value="12.3", inline=True),),
            url="https://example.com/run",
            image_url="https://example.com/run.png",
            color=0x3366FF,
            footer="genji",
        ),
        buttons=(Button(custom_id="card:1:ok", label="Verify", style="success"),),
        mentions=Mentions(users=(USER,)),
    )


async def test_sends_read_back_with_the_same_fingerprint(
    bot: StandInBot, control: StandInControl
) -> None:
    port = DiscordPort(bot, SETTINGS.guild_id, SETTINGS.nonce_window)
    since = datetime.now(UTC) - timedelta(seconds=1)
    card = _card()
    sent = await port.send(Channel(channel_id=CHANNEL), card)
    seen = await port.recent(Channel(channel_id=CHANNEL), since)
    assert [(s.sent, s.fingerprint) for s in seen] == [(sent, card.fingerprint())]

    stored = (await control.messages(CHANNEL))[0]
    assert stored["allowed_mentions"]["users"] == [USER]  # as discord.py sent it
    assert [m["id"] for m in stored["mentions"]] == [str(USER)]

    forward = Forward(
        channel_id=OTHER, source_channel_id=CHANNEL, source_message_id=sent.message_id
    )
    forwarded = await port.send(forward, Outgoing())
    assert [s.sent for s in await port.recent(forward, since)] == [forwarded]

    direct = await port.send(DirectMessage(user_id=USER), Outgoing(content="hello"))
    assert [s.sent for s in await port.recent(DirectMessage(user_id=USER), since)] == [direct]

    await port.edit(CHANNEL, sent.message_id, Outgoing(content="edited"))
    assert (await control.messages(CHANNEL))[0]["content"] == "edited"
    assert (await control.messages(CHANNEL))[0]["embeds"] == []
    await port.delete(CHANNEL, sent.message_id)
    await port.delete(CHANNEL, sent.message_id)  # already gone: still fine
    assert await control.messages(CHANNEL) == []


async def test_forum_threads_are_created_found_and_updated(
    bot: StandInBot, control: StandInControl
) -> None:
    port = DiscordPort(bot, SETTINGS.guild_id, SETTINGS.nonce_window)
    since = datetime.now(UTC) - timedelta(seconds=1)
    target = NewForumThread(forum_id=FORUM, name="Map 7", tags=("Open",))
    starter = Outgoing(content="Playtest of map 7")
    sent = await port.send(target, starter)
    assert sent.thread_id == sent.channel_id == sent.message_id
    seen = await port.recent(target, since)
    assert [(s.sent, s.fingerprint) for s in seen] == [(sent, starter.fingerprint())]
    assert sent.thread_id is not None
    await port.update_thread(sent.thread_id, archived=True, locked=True, tags=("Approved",))
    thread = (await control.state())["threads"][0]
    assert thread["thread_metadata"]["archived"] and thread["thread_metadata"]["locked"]
    forum = next(c for c in (await control.state())["channels"] if c["id"] == str(FORUM))
    approved = next(t["id"] for t in forum["available_tags"] if t["name"] == "Approved")
    assert thread["applied_tags"] == [approved]


async def test_member_roles_and_refusals(bot: StandInBot, control: StandInControl) -> None:
    port = DiscordPort(bot, SETTINGS.guild_id, SETTINGS.nonce_window)
    jumper, pro = SETTINGS.skill_roles.jumper, SETTINGS.skill_roles.pro
    assert await port.member_roles(USER) == frozenset()
    assert await port.set_member_roles(USER, add=frozenset({jumper, pro}), remove=frozenset())
    assert await port.set_member_roles(USER, add=frozenset(), remove=frozenset({pro}))
    assert await port.member_roles(USER) == frozenset({jumper})
    await control.member_absent(ABSENT)
    assert await port.member_roles(ABSENT) is None
    assert not await port.set_member_roles(ABSENT, add=frozenset({jumper}), remove=frozenset())

    await control.deny_channel(OTHER, 50013)
    with pytest.raises(Refused) as refused:
        await port.send(Channel(channel_id=OTHER), Outgoing(content="no"))
    assert (refused.value.status, refused.value.code) == (403, 50013)
    await control.set_dms(ABSENT, open=False)
    with pytest.raises(Forbidden):
        await port.send(DirectMessage(user_id=ABSENT), Outgoing(content="no"))


async def test_a_send_posted_and_answered_502_then_refused_for_its_repeat_is_of_unknown_outcome(
    bot: StandInBot, control: StandInControl
) -> None:
    port = DiscordPort(bot, SETTINGS.guild_id, SETTINGS.nonce_window)
    send = "POST /channels/{channel_id}/messages"
    await control.add_fault(send, "status-after", channel_id=CHANNEL, status=502)
    await control.add_fault(send, "status", channel_id=CHANNEL, **MISSING_PERMISSIONS)
    with pytest.raises(EarlierAttemptAnswered, match="502"):
        await port.send(Channel(channel_id=CHANNEL), _card(), nonce="n-1")
    assert len(await control.messages(CHANNEL)) == 1
    # Repeated with its nonce, it is the message the first attempt posted.
    again = await port.send(Channel(channel_id=CHANNEL), _card(), nonce="n-1")
    assert [int(m["id"]) for m in await control.messages(CHANNEL)] == [again.message_id]

    # Refused at once, with no server error before: a definite refusal, as always.
    await control.add_fault(send, "status", channel_id=CHANNEL, **MISSING_PERMISSIONS)
    with pytest.raises(Refused):
        await port.send(Channel(channel_id=CHANNEL), _card(), nonce="n-2")


async def test_an_edit_whose_answer_is_lost_is_an_outage_not_a_failure(
    bot: StandInBot, control: StandInControl
) -> None:
    port = DiscordPort(bot, SETTINGS.guild_id, SETTINGS.nonce_window)
    sent = await port.send(Channel(channel_id=CHANNEL), Outgoing(content="before"))
    edit = "PATCH /channels/{channel_id}/messages/{message_id}"
    await control.add_fault(edit, "lose-reply", channel_id=CHANNEL)
    with pytest.raises(DependencyUnavailable):
        await port.edit(CHANNEL, sent.message_id, Outgoing(content="after"))
    await port.edit(CHANNEL, sent.message_id, Outgoing(content="after"))
    assert (await control.messages(CHANNEL))[0]["content"] == "after"


def test_the_port_needs_a_client_that_reports_every_answer() -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(ValueError, match="answer_trace"):
        DiscordPort(client, SETTINGS.guild_id, SETTINGS.nonce_window)
