"""The Discord port (genji_bot.effects.port.DiscordPort) implemented with discord.py.

Works from the moment the client has logged in (REST only; the gateway cache is used when it
has the object and fetched around otherwise), so the queue worker may start before the gateway
is ready.

Discord's answers, as the port's contract names them:
- 403 with code 50007 (the user's DMs are closed) -> Forbidden, that destination for good;
  any other 403 (50001 Missing Access, 50013 Missing Permissions) and any other 4xx (a 400 for
  an invalid message, code 50035) -> Refused, with Discord's status, code and message;
- 404 -> NotFound (a delete of a message already gone succeeds);
- 401 -> ConfigurationFailure (the token was revoked: every job waits, none is held);
- 429: discord.py waits out limits up to the client's `max_ratelimit_timeout` itself; a longer
  one (discord.RateLimited) or a 429 it leaves to us -> genji_sdk.failures.RateLimited;
- a connection that could not be opened (aiohttp.ClientConnectorError) -> NotSent for a send,
  DependencyUnavailable("discord") for the rest; so is a connection dropped before the answer
  or an answer that did not come in time, except on a send;
- 5xx after discord.py's own repeats -> DependencyUnavailable("discord") except on a send;
- anything else during a send (a dropped connection, a 5xx, a timeout) propagates: its outcome
  is unknown. Every repeat discord.py makes inside one call carries the same payload, nonce
  included, so it cannot post the message twice; `genji_bot.effects.sends` repeats it across
  calls with the binding's nonce.
- discord.py repeats a request Discord answered with 500, 502, 504 or 524, and its error then
  describes the last attempt alone. So a send whose earlier attempt got such an answer (seen
  through the client's `http_trace`, `answer_trace()`) and whose last one failed in a way that
  says nothing was done (no connection, a long 429, a 4xx) -> EarlierAttemptAnswered: its
  outcome is unknown too.

`recent` reads at most RECENT_LIMIT messages of the destination created after `since`, keeps
the bot's own, and fingerprints each as genji_bot.discord.readback reads it (see its limits).
For a new forum thread (thread creation takes no nonce) it looks at the guild's active threads
in that forum that the bot created since then, and their starter messages; a thread archived
meanwhile is not seen.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import datetime, timedelta
from typing import Any

import aiohttp
import discord
from genji_sdk.failures import ConfigurationFailure, DependencyUnavailable, RateLimited

from genji_bot.discord import render
from genji_bot.discord.readback import outgoing_of
from genji_bot.effects.port import (
    RECENT_LIMIT,
    DirectMessage,
    EarlierAttemptAnswered,
    Forbidden,
    Forward,
    NewForumThread,
    NotFound,
    NotSent,
    Outgoing,
    PortError,
    Refused,
    Seen,
    Sent,
    Target,
)

# A Cloudflare or unparsed 429 carries no retry_after that discord.py reads.
DEFAULT_RETRY_AFTER = 60.0
# Discord's JSON error code for "Cannot send messages to this user" (closed DMs).
CANNOT_MESSAGE_USER = 50007
UNKNOWN_MEMBER = 10007


# The statuses Discord answered to the message and thread creations of the send in progress.
_answers: ContextVar[list[int] | None] = ContextVar("genji_discord_send_answers", default=None)
_CREATIONS = ("/messages", "/threads")
# discord.py repeats these answers itself (HTTPClient.request).
_REPEATED = frozenset({500, 502, 504, 524})


async def _answered(
    _session: aiohttp.ClientSession,
    _context: object,
    params: aiohttp.TraceRequestEndParams,
) -> None:
    answers = _answers.get()
    if answers is not None and params.method == "POST" and params.url.path.endswith(_CREATIONS):
        answers.append(params.response.status)


def answer_trace() -> aiohttp.TraceConfig:
    """The `http_trace` a client whose DiscordPort sends must be built with."""
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_answered)
    return trace


def _retry_after(error: discord.HTTPException) -> float:
    raw = error.response.headers.get("Retry-After") if error.response is not None else None
    try:
        return float(raw) if raw else DEFAULT_RETRY_AFTER
    except ValueError:
        return DEFAULT_RETRY_AFTER


def _refused(error: discord.HTTPException) -> Refused:
    return Refused(error.status, error.code, error.text)


@contextlib.contextmanager
def _classified(*, sending: bool) -> Iterator[None]:
    if not sending:
        with _classified_error(sending=False):
            yield
        return
    answers: list[int] = []
    token = _answers.set(answers)
    try:
        with _classified_error(sending=True):
            yield
    except (PortError, RateLimited) as error:
        repeated = sorted(_REPEATED.intersection(answers))
        if repeated:
            raise EarlierAttemptAnswered(
                f"Discord answered {repeated[0]} to an earlier attempt, then: {error}"
            ) from error
        raise
    finally:
        _answers.reset(token)


@contextlib.contextmanager
def _classified_error(*, sending: bool) -> Iterator[None]:
    try:
        yield
    except discord.Forbidden as error:
        if error.code == CANNOT_MESSAGE_USER:
            raise Forbidden(f"Discord refused: {error.text or error.status}") from error
        raise _refused(error) from error
    except discord.NotFound as error:
        raise NotFound(f"Discord has no such target: {error.text or error.status}") from error
    except discord.RateLimited as error:
        raise RateLimited(error.retry_after, "Discord") from error
    except discord.DiscordServerError as error:
        if sending:
            raise
        raise DependencyUnavailable("discord", f"{error.status} {error.text}") from error
    except discord.HTTPException as error:
        if error.status == 429:
            raise RateLimited(_retry_after(error), "Discord") from error
        if error.status == 401:
            raise ConfigurationFailure(f"Discord refused the bot's token: {error.text}") from error
        if 400 <= error.status < 500:
            raise _refused(error) from error
        raise
    except aiohttp.ClientConnectorError as error:
        if sending:
            raise NotSent(f"could not connect to Discord: {type(error).__name__}") from error
        raise DependencyUnavailable("discord", type(error).__name__) from error
    except (aiohttp.ClientConnectionError, TimeoutError) as error:
        # A dropped connection or no answer in time: unknown for a send, which propagates;
        # anything else is repeated safely, as after an outage.
        if sending:
            raise
        raise DependencyUnavailable("discord", type(error).__name__) from error


class DiscordPort:
    def __init__(self, client: discord.Client, guild_id: int, nonce_window: timedelta) -> None:
        trace = client.http.http_trace
        if trace is None or _answered not in trace.on_request_end:
            raise ValueError("the Discord client must be built with http_trace=answer_trace()")
        self.client = client
        self.guild_id = guild_id
        self.nonce_window = nonce_window

    # -- lookups ------------------------------------------------------------------------------
    @property
    def _me(self) -> int:
        assert self.client.user is not None, "the Discord client has not logged in"
        return self.client.user.id

    async def _channel(self, channel_id: int) -> object:
        cached = self.client.get_channel(channel_id)
        return cached if cached is not None else await self.client.fetch_channel(channel_id)

    async def _forum(self, forum_id: int) -> discord.ForumChannel:
        forum = await self._channel(forum_id)
        if not isinstance(forum, discord.ForumChannel):
            raise NotFound(f"channel {forum_id} is not a forum")
        return forum

    async def _dm(self, user_id: int) -> discord.DMChannel:
        # discord.py keeps the DM channels it opened: one request per user and process.
        return await self.client.create_dm(discord.Object(id=user_id))

    async def _guild(self) -> discord.Guild:
        return self.client.get_guild(self.guild_id) or await self.client.fetch_guild(self.guild_id)

    async def _member(self, user_id: int) -> discord.Member | None:
        guild = await self._guild()
        member = guild.get_member(user_id)
        if member is not None:
            return member
        try:
            return await guild.fetch_member(user_id)
        except discord.NotFound:
            return None

    def _messageable(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    # -- sends --------------------------------------------------------------------------------
    async def send(self, target: Target, message: Outgoing, *, nonce: str | None = None) -> Sent:
        with _classified(sending=True):
            if isinstance(target, NewForumThread):
                return await self._create_thread(target, message)
            if isinstance(target, Forward):
                return await self._forward(target, nonce)
            destination: discord.abc.Messageable = (
                await self._dm(target.user_id)
                if isinstance(target, DirectMessage)
                else self._messageable(target.channel_id)
            )
            arguments = render.message_arguments(message)
            if nonce is not None:
                arguments["nonce"] = nonce
            posted = await destination.send(**arguments)
            return Sent(channel_id=posted.channel.id, message_id=posted.id)

    async def _create_thread(self, target: NewForumThread, message: Outgoing) -> Sent:
        forum = await self._forum(target.forum_id)
        wanted = set(target.tags)
        tags = [tag for tag in forum.available_tags if tag.name in wanted]
        arguments = render.message_arguments(message)
        created = await forum.create_thread(name=target.name, applied_tags=tags, **arguments)
        return Sent(
            channel_id=created.thread.id,
            message_id=created.message.id,
            thread_id=created.thread.id,
        )

    async def _forward(self, target: Forward, nonce: str | None) -> Sent:
        source = self._messageable(target.source_channel_id).get_partial_message(
            target.source_message_id
        )
        reference = source.to_reference(
            fail_if_not_exists=True, type=discord.MessageReferenceType.forward
        )
        arguments: dict[str, Any] = {"nonce": nonce} if nonce is not None else {}
        posted = await self._messageable(target.channel_id).send(
            reference=reference, allowed_mentions=discord.AllowedMentions.none(), **arguments
        )
        return Sent(channel_id=posted.channel.id, message_id=posted.id)

    # -- reading back -------------------------------------------------------------------------
    async def recent(self, target: Target, since: datetime) -> list[Seen]:
        with _classified(sending=False):
            if isinstance(target, NewForumThread):
                return await self._recent_threads(target, since)
            if isinstance(target, DirectMessage):
                channel: discord.abc.Messageable = await self._dm(target.user_id)
            else:
                channel = self._messageable(target.channel_id)
            seen: list[Seen] = []
            async for posted in channel.history(limit=RECENT_LIMIT, after=since, oldest_first=True):
                if posted.author.id != self._me:
                    continue
                if isinstance(target, Forward) and not _forwards(posted, target):
                    continue
                seen.append(
                    Seen(
                        sent=Sent(channel_id=posted.channel.id, message_id=posted.id),
                        fingerprint=outgoing_of(posted).fingerprint(),
                        created_at=posted.created_at,
                    )
                )
            return sorted(seen, key=lambda item: item.created_at, reverse=True)

    async def _recent_threads(self, target: NewForumThread, since: datetime) -> list[Seen]:
        guild = await self._guild()
        seen: list[Seen] = []
        for thread in await guild.active_threads():
            created = thread.created_at
            if (
                thread.parent_id != target.forum_id
                or thread.owner_id != self._me
                or created is None
                or created < since
            ):
                continue
            try:
                starter = thread.starter_message or await thread.fetch_message(thread.id)
            except discord.NotFound:
                continue  # its starter message is gone: not the message being looked for
            seen.append(
                Seen(
                    sent=Sent(channel_id=thread.id, message_id=starter.id, thread_id=thread.id),
                    fingerprint=outgoing_of(starter).fingerprint(),
                    created_at=created,
                )
            )
        return sorted(seen, key=lambda item: item.created_at, reverse=True)[:RECENT_LIMIT]

    # -- edits, deletes, threads --------------------------------------------------------------
    async def edit(self, channel_id: int, message_id: int, message: Outgoing) -> None:
        with _classified(sending=False):
            arguments = render.edit_arguments(message)
            await self._messageable(channel_id).get_partial_message(message_id).edit(**arguments)

    async def delete(self, channel_id: int, message_id: int) -> None:
        with _classified(sending=False), contextlib.suppress(discord.NotFound):
            await self._messageable(channel_id).get_partial_message(message_id).delete()

    async def update_thread(
        self,
        thread_id: int,
        *,
        archived: bool | None = None,
        locked: bool | None = None,
        tags: tuple[str, ...] | None = None,
    ) -> None:
        with _classified(sending=False):
            thread = await self._channel(thread_id)
            if not isinstance(thread, discord.Thread):
                raise NotFound(f"channel {thread_id} is not a thread")
            changes: dict[str, object] = {}
            if archived is not None:
                changes["archived"] = archived
            if locked is not None:
                changes["locked"] = locked
            if tags is not None:
                forum = thread.parent
                available = forum.available_tags if isinstance(forum, discord.ForumChannel) else []
                changes["applied_tags"] = [tag for tag in available if tag.name in set(tags)]
            if changes:
                await thread.edit(**changes)  # type: ignore[arg-type]

    # -- members ------------------------------------------------------------------------------
    async def member_roles(self, user_id: int) -> frozenset[int] | None:
        with _classified(sending=False):
            member = await self._member(user_id)
            if member is None:
                return None
            return frozenset(role.id for role in member.roles if role.id != member.guild.id)

    async def set_member_roles(
        self, user_id: int, *, add: frozenset[int], remove: frozenset[int]
    ) -> bool:
        # One role at a time, with no member fetch: callers pass the differences they read, and
        # roles others change meanwhile are kept. Adding a held role or removing a missing one
        # is a no-op at Discord.
        http = self.client.http
        with _classified(sending=False):
            try:
                for role in sorted(add):
                    await http.add_role(self.guild_id, user_id, role)
                for role in sorted(remove):
                    await http.remove_role(self.guild_id, user_id, role)
            except discord.NotFound as error:
                if error.code == UNKNOWN_MEMBER:
                    return False
                raise
            return True


def _forwards(posted: discord.Message, target: Forward) -> bool:
    reference = posted.reference
    return (
        reference is not None
        and reference.type == discord.MessageReferenceType.forward
        and reference.message_id == target.source_message_id
    )
