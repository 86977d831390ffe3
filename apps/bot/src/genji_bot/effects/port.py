"""The Discord port: every external effect a handler has, in transport-neutral terms.

Handlers describe messages as plain values (`Outgoing`), so the discord.py adapter
(`genji_bot.discord.port`, which talks to Discord or to its local stand-in) and the recorder
that tests needing a fault point inside the process use (`genji_devstack.recorder_port`) render
the same thing. Mentions are always explicit: a message
pings exactly the users and roles in its `mentions`, never @everyone.

Failures a port raises (each but the last means nothing was sent):
- `Forbidden`: this destination refuses the bot for good (a user whose DMs are closed).
- `Refused`: Discord refused the request itself (an invalid message, missing access or
  permissions); an operator can fix the cause, after which the same send may succeed.
- `NotFound`: the channel, message, thread or member does not exist.
- `NotSent`: the request surely did not reach Discord (connection refused before sending).
- `genji_sdk.failures.RateLimited`: wait `retry_after`.
- `genji_sdk.failures.ConfigurationFailure`: Discord refused the bot's token.
- any other exception during a send: the outcome is unknown (the request may have been
  delivered and its reply lost). Repeating the send with the same `nonce` within the port's
  `nonce_window` cannot post it twice: Discord answers with the message the nonce created.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Literal, Protocol

import msgspec

from genji_bot.effects.limits import fitted


class PortError(Exception):
    """A Discord request failed in a way the port could classify."""


class Forbidden(PortError):
    """The destination refuses the bot for good; nothing was sent."""


class Refused(PortError):
    """Discord refused this request, definitely and with a reason an operator can act on."""

    def __init__(self, status: int, code: int, text: str) -> None:
        super().__init__(f"Discord refused the request: {status} (code {code}) {text}".rstrip())
        self.status = status
        self.code = code
        self.text = text


class NotFound(PortError):
    """The target does not exist (or no longer exists)."""


class NotSent(PortError):
    """The request surely never reached Discord; sending again is safe."""


class EarlierAttemptAnswered(Exception):
    """A send whose last attempt failed in a way that says nothing was done, after an earlier
    attempt of the same call was answered with a server error (which Discord may send after
    posting the message): its outcome is unknown, so it is no PortError."""


class Mentions(msgspec.Struct, frozen=True):
    users: tuple[int, ...] = ()
    roles: tuple[int, ...] = ()


NO_MENTIONS = Mentions()


class Field(msgspec.Struct, frozen=True):
    name: str
    value: str
    inline: bool = False


class Embed(msgspec.Struct, frozen=True):
    title: str = ""
    description: str = ""
    fields: tuple[Field, ...] = ()
    url: str | None = None
    image_url: str | None = None
    color: int | None = None
    footer: str = ""


class Button(msgspec.Struct, frozen=True):
    """A persistent component: `custom_id` is parsed again after a restart."""

    custom_id: str
    label: str
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"
    disabled: bool = False


class Outgoing(msgspec.Struct, frozen=True):
    content: str = ""
    embed: Embed | None = None
    buttons: tuple[Button, ...] = ()
    mentions: Mentions = NO_MENTIONS

    def fingerprint(self) -> str:
        """What a replay compares with the destination's history to find this message.

        The digest of the message as Discord holds it: fitted to Discord's limits (as every
        send and edit renders it), without its mentions, which Discord does not return. A
        message within the limits and without mentions keeps the digest of its whole value.
        """
        shown = msgspec.structs.replace(fitted(self), mentions=NO_MENTIONS)
        return hashlib.sha256(msgspec.json.encode(shown)).hexdigest()


class Channel(msgspec.Struct, frozen=True, tag="channel"):
    """A text channel or an existing thread."""

    channel_id: int


class DirectMessage(msgspec.Struct, frozen=True, tag="dm"):
    user_id: int


class NewForumThread(msgspec.Struct, frozen=True, tag="forum-thread"):
    """A new thread in a forum channel, whose starter message is the message sent."""

    forum_id: int
    name: str
    tags: tuple[str, ...] = ()


class Forward(msgspec.Struct, frozen=True, tag="forward"):
    """A forward of an existing message into `channel_id`."""

    channel_id: int
    source_channel_id: int
    source_message_id: int


Target = Channel | DirectMessage | NewForumThread | Forward


def destination_of(target: Target) -> str:
    """The binding's destination key for a target."""
    if isinstance(target, Channel):
        return f"channel:{target.channel_id}"
    if isinstance(target, DirectMessage):
        return f"dm:{target.user_id}"
    if isinstance(target, NewForumThread):
        return f"forum:{target.forum_id}"
    return f"forward:{target.channel_id}:{target.source_message_id}"


class Sent(msgspec.Struct, frozen=True):
    channel_id: int
    message_id: int
    thread_id: int | None = None


class Seen(msgspec.Struct, frozen=True):
    """One of the bot's own recent messages at a destination, as the port read it back."""

    sent: Sent
    fingerprint: str
    created_at: datetime


RECENT_LIMIT = 50
"""How many messages `DiscordPort.recent` reads: the first ones after `since`."""


class DiscordPort(Protocol):
    nonce_window: timedelta
    """How long after a send with a nonce a repeat with the same nonce returns the first
    message instead of posting another (no new forum thread is deduplicated this way)."""

    async def send(self, target: Target, message: Outgoing, *, nonce: str | None = None) -> Sent:
        """Send (or create the thread, or forward); the ids Discord returned."""
        ...

    async def recent(self, target: Target, since: datetime) -> list[Seen]:
        """The bot's own messages among the first RECENT_LIMIT at `target` created since
        `since`, newest first."""
        ...

    async def edit(self, channel_id: int, message_id: int, message: Outgoing) -> None:
        """Replace a message's content; NotFound when it is gone."""
        ...

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete a message; one already gone counts as deleted."""
        ...

    async def update_thread(
        self,
        thread_id: int,
        *,
        archived: bool | None = None,
        locked: bool | None = None,
        tags: tuple[str, ...] | None = None,
    ) -> None:
        """Change a thread's state to the given values; NotFound when it is gone."""
        ...

    async def member_roles(self, user_id: int) -> frozenset[int] | None:
        """The member's current role ids, None when the user is not in the guild."""
        ...

    async def set_member_roles(
        self, user_id: int, *, add: frozenset[int], remove: frozenset[int]
    ) -> bool:
        """Make the member have `add` and not `remove`; False when not in the guild."""
        ...
