"""The stand-in's state: one guild, its users, members, roles, channels and messages.

Everything is in memory and seeded by the caller (see `seed.world_for_bot`). Ids are real
Discord snowflakes (milliseconds since the Discord epoch shifted left by 22 bits, plus a
counter), handed out in increasing order, so discord.py derives correct creation times from
them and `before`/`after` filtering by id matches creation order.

Users and members follow the recorder's rule: every user id is a user (created on first
sight, named `user<id>`) and a guild member without roles unless marked absent.
"""

from __future__ import annotations

import enum
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
_COUNTER_BITS = 22

_USER_MENTION = re.compile(r"<@!?([0-9]{15,20})>")
_ROLE_MENTION = re.compile(r"<@&([0-9]{15,20})>")


class Snowflakes:
    """Increasing snowflakes for the current time."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        now_ms = int(time.time() * 1000)
        candidate = (now_ms - DISCORD_EPOCH_MS) << _COUNTER_BITS
        self._last = max(candidate, self._last + 1)
        return self._last


def snowflake_time(snowflake: int) -> datetime:
    ms = (snowflake >> _COUNTER_BITS) + DISCORD_EPOCH_MS
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def iso(moment: datetime) -> str:
    return moment.isoformat()


class ChannelKind(enum.IntEnum):
    TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    FORUM = 15


@dataclass
class User:
    id: int
    username: str
    bot: bool = False
    dms_open: bool = True


@dataclass
class Role:
    id: int
    name: str
    position: int


@dataclass
class Member:
    user_id: int
    role_ids: list[int]
    joined_at: datetime


@dataclass
class ForumTag:
    id: int
    name: str


@dataclass
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    nonce: str | None
    allowed_mentions: dict[str, Any] | None
    flags: int = 0
    edited_at: datetime | None = None
    reference: dict[str, Any] | None = None
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    webhook_id: int | None = None
    interaction_id: int | None = None
    created_monotonic: float = field(default_factory=time.monotonic)

    @property
    def created_at(self) -> datetime:
        return snowflake_time(self.id)

    def mentioned_users(self) -> list[int]:
        named = list(dict.fromkeys(int(found) for found in _USER_MENTION.findall(self.content)))
        allowed = self.allowed_mentions
        if allowed is None:
            return named
        if "users" in allowed.get("parse", []):
            return named
        explicit = {int(user) for user in allowed.get("users", [])}
        return [user for user in named if user in explicit]

    def mentioned_roles(self) -> list[int]:
        named = list(dict.fromkeys(int(found) for found in _ROLE_MENTION.findall(self.content)))
        allowed = self.allowed_mentions
        if allowed is None:
            return named
        if "roles" in allowed.get("parse", []):
            return named
        explicit = {int(role) for role in allowed.get("roles", [])}
        return [role for role in named if role in explicit]

    def mentions_everyone(self) -> bool:
        if "@everyone" not in self.content and "@here" not in self.content:
            return False
        allowed = self.allowed_mentions
        return allowed is None or "everyone" in allowed.get("parse", [])


@dataclass
class Channel:
    id: int
    kind: ChannelKind
    name: str = ""
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    tags: list[ForumTag] = field(default_factory=list)
    applied_tags: list[int] = field(default_factory=list)
    archived: bool = False
    locked: bool = False
    archived_at: datetime | None = None
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    messages: list[Message] = field(default_factory=list)
    sent_total: int = 0
    denied_code: int | None = None
    """50001 or 50013 while writes are refused (control API)."""

    @property
    def is_guild_channel(self) -> bool:
        return self.kind is not ChannelKind.DM

    def message(self, message_id: int) -> Message | None:
        for message in self.messages:
            if message.id == message_id:
                return message
        return None


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    channel_id: int
    message_id: int | None
    user_id: int
    custom_id: str
    data: dict[str, Any]
    created_monotonic: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    responses: list[dict[str, Any]] = field(default_factory=list)
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    ephemeral: list[Message] = field(default_factory=list)
    """Messages only the presser sees (ephemeral responses and followups): never in a channel."""


@dataclass
class RequestRecord:
    method: str
    route: str
    status: int
    at: datetime


@dataclass
class World:
    guild_id: int
    guild_name: str
    bot_user_id: int
    token: str
    application_name: str = "Genji Shimada"
    owner_id: int = 0
    users: dict[int, User] = field(default_factory=dict)
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    absent: set[int] = field(default_factory=set)
    channels: dict[int, Channel] = field(default_factory=dict)
    dms: dict[int, int] = field(default_factory=dict)
    """User id -> their DM channel id."""
    interactions: dict[int, Interaction] = field(default_factory=dict)
    requests: list[RequestRecord] = field(default_factory=list)
    ids: Snowflakes = field(default_factory=Snowflakes)

    def __post_init__(self) -> None:
        self.user(self.bot_user_id).bot = True
        self.users[self.bot_user_id].username = self.application_name.replace(" ", "")
        if self.owner_id == 0:
            self.owner_id = self.bot_user_id
        if self.guild_id not in self.roles:
            self.roles[self.guild_id] = Role(id=self.guild_id, name="@everyone", position=0)
        self.member(self.bot_user_id)

    # -- users and members --------------------------------------------------------------------
    def user(self, user_id: int) -> User:
        found = self.users.get(user_id)
        if found is None:
            found = self.users[user_id] = User(id=user_id, username=f"user{user_id}")
        return found

    def member(self, user_id: int) -> Member | None:
        if user_id in self.absent:
            return None
        found = self.members.get(user_id)
        if found is None:
            self.user(user_id)
            found = self.members[user_id] = Member(
                user_id=user_id, role_ids=[], joined_at=datetime.now(UTC)
            )
        return found

    def add_role(self, role_id: int, name: str) -> Role:
        role = self.roles[role_id] = Role(id=role_id, name=name, position=len(self.roles))
        return role

    # -- channels -----------------------------------------------------------------------------
    def add_channel(self, channel: Channel) -> Channel:
        if channel.kind in (ChannelKind.TEXT, ChannelKind.FORUM):
            channel.position = sum(
                1 for other in self.channels.values() if other.kind is channel.kind
            )
        self.channels[channel.id] = channel
        return channel

    def channel(self, channel_id: int) -> Channel | None:
        return self.channels.get(channel_id)

    def dm_channel(self, user_id: int) -> Channel:
        existing = self.dms.get(user_id)
        if existing is not None:
            return self.channels[existing]
        self.user(user_id)
        channel = Channel(id=self.ids.next(), kind=ChannelKind.DM, recipient_id=user_id)
        self.channels[channel.id] = channel
        self.dms[user_id] = channel.id
        return channel

    def threads(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.kind is ChannelKind.PUBLIC_THREAD]

    # -- messages -----------------------------------------------------------------------------
    def store(self, channel: Channel, message: Message) -> Message:
        channel.messages.append(message)
        channel.sent_total += 1
        return message

    def by_nonce(
        self, channel: Channel, author_id: int, nonce: str, window: float
    ) -> Message | None:
        horizon = time.monotonic() - window
        for message in reversed(channel.messages):
            if message.created_monotonic < horizon:
                break
            if message.author_id == author_id and message.nonce == nonce:
                return message
        return None

    def find_message(self, message_id: int) -> Message | None:
        for channel in self.channels.values():
            found = channel.message(message_id)
            if found is not None:
                return found
        return None
