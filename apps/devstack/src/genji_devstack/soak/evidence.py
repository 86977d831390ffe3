"""What Discord holds, read from the stand-in's inspection API, laid beside the bot's bindings.

Every bot message the stand-in stores is found by its destination as the bindings name it
(`channel:<id>` a text channel or thread, `dm:<user>`, `forum:<id>` the starter message of a
thread in that forum, `forward:<channel>:<source>`). A message belongs to a bound send when it
is the message or thread the binding recorded, or when it carries the nonce the bot derives from
the binding (genji_bot.effects.nonces: the same for every attempt of one intent), so a send
whose reply was lost is found even though the bot never learned its id.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg
from genji_bot.effects.nonces import send_nonce

from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.discord_standin.world import snowflake_time

# Discord's clock and the database's may disagree a little about when an intent was recorded.
CLOCK_SKEW_SECONDS = 5.0
BINDINGS_SQL = """
    SELECT job_id, effect_key, destination, state, channel_id, message_id, thread_id, created_at
    FROM effect_bindings
"""


@dataclass(frozen=True)
class Posted:
    """One message the bot posted, as the stand-in stores it."""

    id: int
    channel_id: int
    destination: str
    nonce: str | None
    payload: str
    """Content, embeds and components: what a duplicate repeats."""
    thread_id: int | None = None
    """The thread this message starts (a new forum thread's starter message)."""

    @property
    def created(self) -> float:
        """Unix time of its creation (from its snowflake)."""
        return snowflake_time(self.id).timestamp()


@dataclass(frozen=True)
class Binding:
    job_id: str
    effect: str
    destination: str
    state: str
    channel_id: int | None
    message_id: int | None
    thread_id: int | None
    created_at: datetime

    @property
    def nonce(self) -> str:
        return send_nonce(UUID(self.job_id), self.effect, self.destination, self.created_at)


@dataclass
class DiscordState:
    posted: list[Posted] = field(default_factory=list)
    nonce_counts: dict[tuple[int, str], int] = field(default_factory=dict)
    """(channel id, nonce) -> messages stored with it (more than one is a duplicate)."""
    denied: list[int] = field(default_factory=list)
    """Channels the stand-in refuses with 403."""

    def at(self, destination: str) -> list[Posted]:
        return [p for p in self.posted if p.destination == destination]


def _payload(message: dict[str, Any]) -> str:
    return json.dumps(
        [message.get("content", ""), message.get("embeds", []), message.get("components", [])],
        sort_keys=True,
    )


async def read_discord(control: StandInControl, bot_user_id: int) -> DiscordState:
    state = await control.state()
    found = DiscordState()
    forum_ids = {int(c["id"]) for c in state["channels"] if int(c["type"]) == 15}

    def add(channel: dict[str, Any], destination: str, forum: int | None = None) -> None:
        """`forum`: the channel is a thread of that forum, its first message the starter."""
        channel_id = int(channel["id"])
        for nonce, count in channel.get("nonce_counts", {}).items():
            found.nonce_counts[(channel_id, nonce)] = int(count)
        if channel.get("denied_code") is not None:
            found.denied.append(channel_id)
        for index, message in enumerate(channel["messages"]):
            if int(message["author"]["id"]) != bot_user_id:
                continue
            starter = forum is not None and index == 0
            found.posted.append(
                Posted(
                    id=int(message["id"]),
                    channel_id=channel_id,
                    destination=f"forum:{forum}" if starter else destination,
                    nonce=message.get("nonce"),
                    payload=_payload(message),
                    thread_id=channel_id if starter else None,
                )
            )

    for channel in state["channels"]:
        if int(channel["id"]) not in forum_ids:
            add(channel, f"channel:{channel['id']}")
        elif channel.get("denied_code") is not None:
            found.denied.append(int(channel["id"]))
    for thread in state["threads"]:
        parent = thread.get("parent_id")
        forum = int(parent) if parent is not None and int(parent) in forum_ids else None
        add(thread, f"channel:{thread['id']}", forum)
    for dm in state["dms"]:
        add(dm, f"dm:{dm['user_id']}")
    return found


async def read_bindings(conn: asyncpg.Connection) -> list[Binding]:
    return [
        Binding(
            job_id=str(row["job_id"]),
            effect=row["effect_key"],
            destination=row["destination"],
            state=row["state"],
            channel_id=row["channel_id"],
            message_id=row["message_id"],
            thread_id=row["thread_id"],
            created_at=row["created_at"],
        )
        for row in await conn.fetch(BINDINGS_SQL)
    ]


def _channel_of(destination: str) -> str:
    """A forward's messages are in its channel."""
    if destination.startswith("forward:"):
        return f"channel:{destination.split(':')[1]}"
    return destination


def matches(binding: Binding, discord: DiscordState) -> list[Posted]:
    """The messages of this binding's send: its recorded message or thread, or its nonce."""
    found = []
    for posted in discord.at(_channel_of(binding.destination)):
        if binding.message_id is not None and posted.id == binding.message_id:
            found.append(posted)
        elif binding.thread_id is not None and posted.thread_id == binding.thread_id:
            found.append(posted)
        elif posted.nonce is not None and posted.nonce == binding.nonce:
            found.append(posted)
    return found


def unclaimed_thread(binding: Binding, discord: DiscordState, bindings: list[Binding]) -> Posted:
    """The one thread started in the binding's forum since its intent that no binding holds
    (a new forum thread carries no nonce); raises LookupError when there is not exactly one."""
    claimed = {b.thread_id for b in bindings if b.thread_id is not None}
    since = binding.created_at.timestamp() - CLOCK_SKEW_SECONDS
    candidates = [
        p
        for p in discord.at(binding.destination)
        if p.thread_id is not None and p.thread_id not in claimed and p.created >= since
    ]
    if len(candidates) != 1:
        raise LookupError(f"{len(candidates)} unclaimed threads")
    return candidates[0]


@dataclass
class Attribution:
    sends: dict[int, Binding] = field(default_factory=dict)
    """Message id -> the binding whose send it is."""
    repeated_nonces: Counter[tuple[int, str]] = field(default_factory=Counter)


def attribute(bindings: list[Binding], discord: DiscordState) -> Attribution:
    out = Attribution()
    for binding in bindings:
        for posted in matches(binding, discord):
            out.sends[posted.id] = binding
    for key, count in discord.nonce_counts.items():
        if count > 1:
            out.repeated_nonces[key] = count
    return out
