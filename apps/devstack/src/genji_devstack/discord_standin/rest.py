"""Discord's REST API under /api/v10: the routes the bot uses, with Discord's answers.

Every request passes one middleware that checks the bot token (webhook and interaction
callback routes are authorised by their token instead), applies injected faults, counts the
route's rate-limit bucket, turns a DiscordError into Discord's JSON error body, adds the
X-RateLimit-* and `Via` headers (discord.py treats a 429 without `Via` as a Cloudflare ban)
and logs the request. Write routes accept JSON or multipart/form-data with `payload_json`.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from genji_devstack.discord_standin import errors, interactions, limits, messages, shapes
from genji_devstack.discord_standin.errors import DiscordError
from genji_devstack.discord_standin.faults import Action, Fault, FaultBook
from genji_devstack.discord_standin.gateway import Gateway
from genji_devstack.discord_standin.wire import json_response, no_content, read_body, snowflake
from genji_devstack.discord_standin.world import (
    Channel,
    ChannelKind,
    ForumTag,
    Member,
    RequestRecord,
    World,
)

PREFIX = "/api/v10"
VIA = "1.1 google"
NOMINAL_BUCKET_LIMIT = 1000
MAX_LOG = 100_000
_PUBLIC_ROUTES = ("/webhooks/", "/interactions/")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class RestConfig:
    nonce_window: float = 180.0
    interaction_timeout: float = 3.0
    followup_ttl: float = 900.0
    bucket_limit: int | None = None
    """Requests per bucket window before a real 429 (None: never limited)."""
    bucket_window: float = 1.0
    gateway_url: str = ""


@dataclass
class _Bucket:
    started: float
    count: int = 0


@dataclass
class Counts:
    by_route: dict[str, dict[int, int]] = field(default_factory=dict)

    def add(self, route: str, status: int) -> None:
        per_status = self.by_route.setdefault(route, {})
        per_status[status] = per_status.get(status, 0) + 1


def template_of(request: web.Request) -> str:
    info = request.match_info.route.resource
    canonical = info.canonical if info is not None else request.path
    return canonical.removeprefix(PREFIX)


class Rest:
    def __init__(
        self, world: World, gateway: Gateway, faults: FaultBook, config: RestConfig
    ) -> None:
        self.world = world
        self.gateway = gateway
        self.faults = faults
        self.config = config
        self.counts = Counts()
        self._buckets: dict[tuple[str, str], _Bucket] = {}

    # -- the app ------------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(middlewares=[self.middleware])
        add = app.router.add_route
        add("GET", "/gateway", self.get_gateway)
        add("GET", "/gateway/bot", self.get_gateway_bot)
        add("GET", "/oauth2/applications/@me", self.get_application)
        add("GET", "/users/@me", self.get_me)
        add("POST", "/users/@me/channels", self.create_dm)
        add("GET", "/users/{user_id}", self.get_user)
        add("GET", "/channels/{channel_id}", self.get_channel)
        add("PATCH", "/channels/{channel_id}", self.modify_channel)
        add("GET", "/channels/{channel_id}/messages", self.list_messages)
        add("POST", "/channels/{channel_id}/messages", self.create_message)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        add("POST", "/channels/{channel_id}/threads", self.create_thread)
        add("GET", "/guilds/{guild_id}", self.get_guild)
        add("GET", "/guilds/{guild_id}/channels", self.guild_channels)
        add("GET", "/guilds/{guild_id}/roles", self.guild_roles)
        add("GET", "/guilds/{guild_id}/threads/active", self.active_threads)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        add("PATCH", "/guilds/{guild_id}/members/{user_id}", self.modify_member)
        add("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.add_role)
        add("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.remove_role)
        hooks = interactions.Hooks(self.world, self.gateway, self.config)
        add("POST", "/interactions/{interaction_id}/{token}/callback", hooks.callback)
        add("POST", "/webhooks/{application_id}/{token}", hooks.followup)
        add("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", hooks.get)
        add("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", hooks.edit)
        add("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", hooks.delete)
        return app

    # -- cross-cutting: auth, faults, buckets, errors, headers, log ---------------------------
    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        template = template_of(request)
        lost = False
        status = 500
        try:
            response, lost = await self._answer(request, handler, template)
            status = response.status
            self._headers(request, template, response)
            if lost:
                # The request was applied; the answer never reaches the client.
                if request.transport is not None:
                    request.transport.abort()
            return response
        finally:
            self._log(request.method, template, 0 if lost else status)

    async def _answer(
        self, request: web.Request, handler: Handler, template: str
    ) -> tuple[web.StreamResponse, bool]:
        try:
            if request.match_info.http_exception is not None:
                raise errors.not_found_route()
            if not template.startswith(_PUBLIC_ROUTES) and not self._authorised(request):
                raise errors.unauthorized()
            fault = self.faults.take(request.method, template, self._channel_of(request))
            if fault is not None:
                if fault.action is Action.FREEZE:
                    # A frozen request was received whole: it completes after a thaw even when
                    # its client has gone (aiohttp keeps the body it read for the handler).
                    await request.read()
                early = await self._apply_fault(fault)
                if early is not None:
                    return early, False
            limited = self._count(request, template)
            if limited is not None:
                return limited, False
            response = await handler(request)
            if fault is not None and fault.action is Action.STATUS_AFTER:
                return json_response(
                    {"message": fault.message, "code": fault.code}, fault.status
                ), False
            return response, fault is not None and fault.action is Action.LOSE_REPLY
        except DiscordError as error:
            return json_response(error.body(), error.status), False

    def _authorised(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.world.token}"

    @staticmethod
    def _channel_of(request: web.Request) -> int | None:
        raw = request.match_info.get("channel_id")
        return int(raw) if raw is not None and raw.isdigit() else None

    async def _apply_fault(self, fault: Fault) -> web.Response | None:
        if fault.action is Action.STATUS:
            return json_response({"message": fault.message, "code": fault.code}, fault.status)
        if fault.action is Action.RATELIMIT:
            return self._too_many(
                fault.retry_after,
                scope="global" if fault.global_ else "user",
                is_global=fault.global_,
            )
        if fault.action is Action.DELAY:
            await asyncio.sleep(fault.seconds)
        elif fault.action is Action.FREEZE:
            await self.faults.hold()
        return None

    @staticmethod
    def _too_many(retry_after: float, *, scope: str, is_global: bool) -> web.Response:
        response = json_response(
            {
                "message": "You are being rate limited.",
                "retry_after": retry_after,
                "global": is_global,
            },
            429,
        )
        response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
        response.headers["X-RateLimit-Scope"] = scope
        if is_global:
            response.headers["X-RateLimit-Global"] = "true"
        return response

    @staticmethod
    def _major(request: web.Request) -> str:
        info = request.match_info
        for name in ("channel_id", "guild_id"):
            if name in info:
                return info[name]
        if "token" in info:
            return f"{info.get('application_id', info.get('interaction_id', ''))}:{info['token']}"
        return ""

    def _bucket(self, request: web.Request, template: str) -> _Bucket:
        key = (f"{request.method} {template}", self._major(request))
        now = time.monotonic()
        bucket = self._buckets.get(key)
        if bucket is None or now - bucket.started >= self.config.bucket_window:
            bucket = self._buckets[key] = _Bucket(started=now)
        return bucket

    def _count(self, request: web.Request, template: str) -> web.Response | None:
        bucket = self._bucket(request, template)
        bucket.count += 1
        limit = self.config.bucket_limit
        if limit is not None and bucket.count > limit:
            left = self.config.bucket_window - (time.monotonic() - bucket.started)
            return self._too_many(round(max(left, 0.001), 3), scope="user", is_global=False)
        return None

    def _headers(self, request: web.Request, template: str, response: web.StreamResponse) -> None:
        bucket = self._bucket(request, template)
        limit = self.config.bucket_limit or NOMINAL_BUCKET_LIMIT
        left = max(self.config.bucket_window - (time.monotonic() - bucket.started), 0.0)
        headers = response.headers
        headers["Via"] = VIA
        headers["X-RateLimit-Limit"] = str(limit)
        headers["X-RateLimit-Remaining"] = str(max(limit - bucket.count, 0))
        headers["X-RateLimit-Reset"] = f"{time.time() + left:.3f}"
        headers["X-RateLimit-Reset-After"] = f"{left:.3f}"
        route = f"{request.method} {template}"
        headers["X-RateLimit-Bucket"] = hashlib.sha1(route.encode()).hexdigest()[:32]

    def _log(self, method: str, template: str, status: int) -> None:
        self.counts.add(f"{method} {template}", status)
        log = self.world.requests
        log.append(
            RequestRecord(method=method, route=template, status=status, at=datetime.now(UTC))
        )
        if len(log) > MAX_LOG:
            del log[: len(log) - MAX_LOG]

    # -- lookups ------------------------------------------------------------------------------
    def _channel(self, request: web.Request) -> Channel:
        found = self.world.channel(snowflake(request, "channel_id"))
        if found is None:
            raise errors.unknown_channel()
        return found

    def _guild(self, request: web.Request) -> None:
        if snowflake(request, "guild_id") != self.world.guild_id:
            raise errors.unknown_guild()

    def _member(self, request: web.Request) -> Member:
        self._guild(request)
        found = self.world.member(snowflake(request, "user_id"))
        if found is None:
            raise errors.unknown_member()
        return found

    # -- login and gateway --------------------------------------------------------------------
    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.config.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.config.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(shapes.application(self.world))

    async def get_me(self, request: web.Request) -> web.Response:
        me = shapes.user(self.world.user(self.world.bot_user_id))
        return json_response({**me, "verified": True, "mfa_enabled": False, "flags": 0})

    async def get_user(self, request: web.Request) -> web.Response:
        return json_response(shapes.user(self.world.user(snowflake(request, "user_id"))))

    async def create_dm(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        raw = body.get("recipient_id")
        if raw is None or not str(raw).isdigit():
            raise errors.invalid_form(
                {
                    "recipient_id": {
                        "_errors": [
                            {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}
                        ]
                    }
                }
            )
        channel = self.world.dm_channel(int(raw))
        return json_response(shapes.channel(self.world, channel))

    # -- channels and messages ----------------------------------------------------------------
    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(shapes.channel(self.world, self._channel(request)))

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        query = request.query
        raw_limit = query.get("limit", "50")
        if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= 100:
            raise errors.invalid_form(
                {
                    "limit": {
                        "_errors": [
                            {
                                "code": "NUMBER_TYPE_MAX",
                                "message": "Int value should be between 1 and 100.",
                            }
                        ]
                    }
                }
            )
        limit = int(raw_limit)
        ordered = sorted(channel.messages, key=lambda item: item.id)
        if "around" in query and query["around"].isdigit():
            pivot = int(query["around"])
            older = [m for m in ordered if m.id < pivot][-(limit // 2) :] if limit > 1 else []
            rest = [m for m in ordered if m.id >= pivot]
            chosen = older + rest[: limit - len(older)]
        elif "after" in query and query["after"].isdigit():
            after = int(query["after"])
            chosen = [m for m in ordered if m.id > after][:limit]
        else:
            before = int(query["before"]) if query.get("before", "").isdigit() else None
            candidates = [m for m in ordered if before is None or m.id < before]
            chosen = candidates[-limit:]
        newest_first = sorted(chosen, key=lambda item: item.id, reverse=True)
        return json_response([shapes.message(self.world, m) for m in newest_first])

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        messages.check_writable(self.world, channel)
        body = await read_body(request)
        created = await messages.create(
            self.world, self.gateway, channel, body, nonce_window=self.config.nonce_window
        )
        return json_response(shapes.message(self.world, created.message))

    def _message(self, request: web.Request, channel: Channel) -> Any:
        found = channel.message(snowflake(request, "message_id"))
        if found is None:
            raise errors.unknown_message()
        return found

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(shapes.message(self.world, self._message(request, channel)))

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.denied_code is not None:
            raise errors.denied(channel.denied_code)
        message = self._message(request, channel)
        body = await read_body(request)
        await messages.edit(self.world, self.gateway, channel, message, body)
        return json_response(shapes.message(self.world, message))

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.denied_code is not None:
            raise errors.denied(channel.denied_code)
        await messages.delete(self.world, self.gateway, channel, self._message(request, channel))
        return no_content()

    # -- threads ------------------------------------------------------------------------------
    def _tags(self, forum: Channel, raw: object) -> list[int]:
        wanted = [int(tag) for tag in raw] if isinstance(raw, list) else []
        known = {tag.id for tag in forum.tags}
        if any(tag not in known for tag in wanted):
            raise errors.invalid_form(
                {
                    "applied_tags": {
                        "_errors": [
                            {"code": "BASE_TYPE_CHOICES", "message": "Value is not a valid tag."}
                        ]
                    }
                }
            )
        return wanted

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        if parent.denied_code is not None:
            raise errors.denied(parent.denied_code)
        if parent.kind not in (ChannelKind.TEXT, ChannelKind.FORUM):
            raise errors.DiscordError(400, 50024, "Cannot execute action on this channel type")
        body = await read_body(request)
        limits.check_thread_name(body.get("name"))
        thread = Channel(
            id=self.world.ids.next(),
            kind=ChannelKind.PUBLIC_THREAD,
            name=str(body["name"]),
            parent_id=parent.id,
            owner_id=self.world.bot_user_id,
        )
        starter = None
        if parent.kind is ChannelKind.FORUM:
            thread.applied_tags = self._tags(parent, body.get("applied_tags"))
            first = body.get("message")
            if not isinstance(first, dict):
                raise errors.invalid_form(
                    {
                        "message": {
                            "_errors": [
                                {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}
                            ]
                        }
                    }
                )
            # Validate before the thread exists: a refused message leaves no thread behind.
            built = await messages.create(
                self.world,
                self.gateway,
                thread,
                first,
                nonce_window=0,
                path=("message",),
                message_id=thread.id,
                store=False,
            )
            starter = built.message
        self.world.add_channel(thread)
        await self.gateway.dispatch(
            "THREAD_CREATE", {**shapes.thread(self.world, thread), "newly_created": True}
        )
        answer = shapes.thread(self.world, thread)
        if starter is not None:
            self.world.store(thread, starter)
            await self.gateway.dispatch("MESSAGE_CREATE", messages.dispatched(self.world, starter))
            answer = shapes.thread(self.world, thread)
            answer["message"] = shapes.message(self.world, starter)
        answer["member"] = shapes.thread_member(self.world, thread)
        return json_response(answer, 201)

    async def modify_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.denied_code is not None:
            raise errors.denied(channel.denied_code)
        body = await read_body(request)
        if channel.kind is not ChannelKind.PUBLIC_THREAD:
            if "name" in body:
                limits.check_thread_name(body["name"])
                channel.name = str(body["name"])
            return json_response(shapes.channel(self.world, channel))
        if "name" in body:
            limits.check_thread_name(body["name"])
            channel.name = str(body["name"])
        if "applied_tags" in body:
            parent = self.world.channel(channel.parent_id or 0)
            if parent is not None and parent.kind is ChannelKind.FORUM:
                channel.applied_tags = self._tags(parent, body["applied_tags"])
        if "locked" in body and body["locked"] is not None:
            channel.locked = bool(body["locked"])
        if "archived" in body and body["archived"] is not None:
            archived = bool(body["archived"])
            if archived != channel.archived:
                channel.archived_at = datetime.now(UTC)
            channel.archived = archived
        shaped = shapes.thread(self.world, channel)
        await self.gateway.dispatch("THREAD_UPDATE", shaped)
        return json_response(shaped)

    # -- guild, roles, members ----------------------------------------------------------------
    async def get_guild(self, request: web.Request) -> web.Response:
        self._guild(request)
        shaped = shapes.guild(self.world, gateway=False)
        if request.query.get("with_counts") in ("1", "true"):
            shaped["approximate_member_count"] = len(self.world.members)
            shaped["approximate_presence_count"] = 0
        return json_response(shaped)

    async def guild_channels(self, request: web.Request) -> web.Response:
        self._guild(request)
        return json_response(
            [
                shapes.channel(self.world, channel)
                for channel in self.world.channels.values()
                if channel.kind in (ChannelKind.TEXT, ChannelKind.FORUM)
            ]
        )

    async def guild_roles(self, request: web.Request) -> web.Response:
        self._guild(request)
        return json_response([shapes.role(role) for role in self.world.roles.values()])

    async def active_threads(self, request: web.Request) -> web.Response:
        self._guild(request)
        active = [thread for thread in self.world.threads() if not thread.archived]
        return json_response(
            {
                "threads": [shapes.thread(self.world, thread) for thread in active],
                "members": [shapes.thread_member(self.world, thread) for thread in active],
            }
        )

    async def get_member(self, request: web.Request) -> web.Response:
        return json_response(shapes.member(self.world, self._member(request)))

    def _role(self, role_id: int) -> int:
        if role_id not in self.world.roles or role_id == self.world.guild_id:
            raise errors.unknown_role()
        return role_id

    async def _member_changed(self, member: Member) -> None:
        await self.gateway.dispatch(
            "GUILD_MEMBER_UPDATE",
            {**shapes.member(self.world, member), "guild_id": str(self.world.guild_id)},
        )

    async def modify_member(self, request: web.Request) -> web.Response:
        member = self._member(request)
        body = await read_body(request)
        if "roles" in body and body["roles"] is not None:
            member.role_ids = list(dict.fromkeys(self._role(int(r)) for r in body["roles"]))
            await self._member_changed(member)
        return json_response(shapes.member(self.world, member))

    async def add_role(self, request: web.Request) -> web.Response:
        member = self._member(request)
        role_id = self._role(snowflake(request, "role_id"))
        if role_id not in member.role_ids:
            member.role_ids.append(role_id)
            await self._member_changed(member)
        return no_content()

    async def remove_role(self, request: web.Request) -> web.Response:
        member = self._member(request)
        role_id = self._role(snowflake(request, "role_id"))
        if role_id in member.role_ids:
            member.role_ids.remove(role_id)
            await self._member_changed(member)
        return no_content()


def forum_tags(names: list[str], world: World) -> list[ForumTag]:
    return [ForumTag(id=world.ids.next(), name=name) for name in names]
