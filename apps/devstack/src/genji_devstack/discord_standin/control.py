"""The control and inspection API under /_standin/ (never under /api/v10), and a typed client.

Faults: POST/GET/DELETE /_standin/faults. Gateway: POST /_standin/gateway/close|reconnect|
invalid-session. World: channel deny/allow, DMs open/closed, members absent/present, a member's
roles.
Interactions: POST /_standin/interactions dispatches INTERACTION_CREATE, GET
/_standin/interactions/{id} shows what the bot answered. Inspection: GET /_standin/state and
GET /_standin/channels/{id}/messages (oldest first).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

import httpx
from aiohttp import web

from genji_devstack.discord_standin import errors, interactions, shapes
from genji_devstack.discord_standin.errors import DiscordError
from genji_devstack.discord_standin.faults import FaultBook
from genji_devstack.discord_standin.gateway import Gateway
from genji_devstack.discord_standin.report import CONTROL_PREFIX
from genji_devstack.discord_standin.rest import Counts
from genji_devstack.discord_standin.wire import json_response, read_body, snowflake
from genji_devstack.discord_standin.world import Channel, ChannelKind, Message, World


def stored_message(world: World, message: Message) -> dict[str, Any]:
    """A message as the inspection API shows it: Discord's shape plus what was received."""
    return {
        **shapes.message(world, message),
        "allowed_mentions": message.allowed_mentions,
        "nonce": message.nonce,
    }


def nonce_counts(channel: Channel) -> dict[str, int]:
    counts: dict[str, int] = {}
    for message in channel.messages:
        if message.nonce is not None:
            counts[message.nonce] = counts.get(message.nonce, 0) + 1
    return counts


def _channel_state(world: World, channel: Channel) -> dict[str, Any]:
    return {
        **shapes.channel(world, channel),
        "denied_code": channel.denied_code,
        "messages": [stored_message(world, message) for message in channel.messages],
        "nonce_counts": nonce_counts(channel),
    }


class Control:
    def __init__(self, world: World, gateway: Gateway, faults: FaultBook, counts: Counts) -> None:
        self.world = world
        self.gateway = gateway
        self.faults = faults
        self.counts = counts

    def routes(self, app: web.Application) -> None:
        add = app.router.add_route
        p = CONTROL_PREFIX
        add("POST", f"{p}/faults", self.add_fault)
        add("GET", f"{p}/faults", self.list_faults)
        add("DELETE", f"{p}/faults", self.clear_faults)
        add("POST", f"{p}/gateway/close", self.gateway_close)
        add("POST", f"{p}/gateway/reconnect", self.gateway_reconnect)
        add("POST", f"{p}/gateway/invalid-session", self.gateway_invalid_session)
        add("GET", f"{p}/gateway", self.gateway_state)
        add("POST", f"{p}/channels/{{channel_id}}/deny", self.deny)
        add("POST", f"{p}/channels/{{channel_id}}/allow", self.allow)
        add("GET", f"{p}/channels/{{channel_id}}/messages", self.channel_messages)
        add("POST", f"{p}/users/{{user_id}}/dms", self.dms)
        add("POST", f"{p}/members/{{user_id}}/absent", self.absent)
        add("POST", f"{p}/members/{{user_id}}/present", self.present)
        add("PUT", f"{p}/members/{{user_id}}/roles", self.member_roles)
        add("POST", f"{p}/interactions", self.interact)
        add("GET", f"{p}/interactions/{{interaction_id}}", self.interaction)
        add("GET", f"{p}/state", self.state)

    @staticmethod
    def _error(error: DiscordError) -> web.Response:
        return json_response(error.body(), error.status)

    # -- faults -------------------------------------------------------------------------------
    async def add_fault(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        try:
            fault = self.faults.add(body)
        except (KeyError, ValueError, TypeError) as error:
            return json_response({"message": f"bad fault: {error!r}"}, 400)
        return json_response({"id": fault.id, "fault": fault.describe()}, 201)

    async def list_faults(self, request: web.Request) -> web.Response:
        return json_response(
            {"faults": [f.describe() for f in self.faults.faults], "frozen": self.faults.frozen}
        )

    async def clear_faults(self, request: web.Request) -> web.Response:
        self.faults.clear()
        return json_response({"cleared": True})

    # -- gateway ------------------------------------------------------------------------------
    async def gateway_close(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        done = await self.gateway.close(int(body.get("code", 4000)))
        return json_response({"closed": done})

    async def gateway_reconnect(self, request: web.Request) -> web.Response:
        return json_response({"sent": await self.gateway.reconnect()})

    async def gateway_invalid_session(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        done = await self.gateway.invalidate(resumable=bool(body.get("resumable", False)))
        return json_response({"sent": done})

    async def gateway_state(self, request: web.Request) -> web.Response:
        return json_response(self._gateway_state())

    def _gateway_state(self) -> dict[str, Any]:
        current = self.gateway.current
        return {
            "connected": self.gateway.connected,
            "session_id": current.id if current is not None else None,
            "seq": current.seq if current is not None else None,
            **self.gateway.counters.describe(),
        }

    # -- world switches -----------------------------------------------------------------------
    def _channel(self, request: web.Request) -> Channel:
        found = self.world.channel(snowflake(request, "channel_id"))
        if found is None:
            raise errors.unknown_channel()
        return found

    async def deny(self, request: web.Request) -> web.Response:
        try:
            channel = self._channel(request)
        except DiscordError as error:
            return self._error(error)
        body = await read_body(request)
        code = int(body.get("code", 50001))
        if code not in (50001, 50013):
            return json_response({"message": "code must be 50001 or 50013"}, 400)
        channel.denied_code = code
        return json_response({"channel_id": str(channel.id), "denied_code": code})

    async def allow(self, request: web.Request) -> web.Response:
        try:
            channel = self._channel(request)
        except DiscordError as error:
            return self._error(error)
        channel.denied_code = None
        return json_response({"channel_id": str(channel.id), "denied_code": None})

    async def channel_messages(self, request: web.Request) -> web.Response:
        try:
            channel = self._channel(request)
        except DiscordError as error:
            return self._error(error)
        return json_response(
            {
                "channel_id": str(channel.id),
                "messages": [stored_message(self.world, m) for m in channel.messages],
                "nonce_counts": nonce_counts(channel),
            }
        )

    async def dms(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        user = self.world.user(snowflake(request, "user_id"))
        user.dms_open = bool(body.get("open", True))
        return json_response({"user_id": str(user.id), "dms_open": user.dms_open})

    async def absent(self, request: web.Request) -> web.Response:
        user_id = snowflake(request, "user_id")
        self.world.absent.add(user_id)
        self.world.members.pop(user_id, None)
        return json_response({"user_id": str(user_id), "member": False})

    async def present(self, request: web.Request) -> web.Response:
        user_id = snowflake(request, "user_id")
        self.world.absent.discard(user_id)
        self.world.member(user_id)
        return json_response({"user_id": str(user_id), "member": True})

    async def member_roles(self, request: web.Request) -> web.Response:
        """Give a member exactly these roles (known roles of the guild), as moderators do."""
        member = self.world.member(snowflake(request, "user_id"))
        if member is None:
            return self._error(errors.unknown_member())
        body = await read_body(request)
        role_ids = [int(role) for role in body.get("role_ids", [])]
        unknown = [role for role in role_ids if role not in self.world.roles]
        if unknown:
            return json_response({"message": f"unknown roles: {unknown}"}, 400)
        member.role_ids = list(dict.fromkeys(role_ids))
        return json_response(
            {"user_id": str(member.user_id), "role_ids": [str(r) for r in member.role_ids]}
        )

    # -- interactions -------------------------------------------------------------------------
    async def interact(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        try:
            values = body.get("values") or body.get("components") or {}
            interaction, payload = interactions.new_interaction(
                self.world,
                kind=str(body.get("type", "component")),
                channel_id=int(body["channel_id"]),
                message_id=int(body["message_id"]) if body.get("message_id") else None,
                custom_id=str(body["custom_id"]),
                user_id=int(body["user_id"]),
                values={str(k): str(v) for k, v in dict(values).items()},
                component_type=int(body.get("component_type", interactions.BUTTON)),
            )
        except DiscordError as error:
            return self._error(error)
        except (KeyError, TypeError, ValueError) as error:
            return json_response({"message": f"bad interaction: {error!r}"}, 400)
        delivered = await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return json_response(
            {
                "interaction_id": str(interaction.id),
                "token": interaction.token,
                "delivered": delivered and self.gateway.connected,
            },
            201,
        )

    async def interaction(self, request: web.Request) -> web.Response:
        found = self.world.interactions.get(snowflake(request, "interaction_id"))
        if found is None:
            return self._error(errors.unknown_interaction())
        return json_response(interactions.describe(self.world, found))

    # -- inspection ---------------------------------------------------------------------------
    async def state(self, request: web.Request) -> web.Response:
        world = self.world
        guild_channels = [
            _channel_state(world, c)
            for c in world.channels.values()
            if c.kind in (ChannelKind.TEXT, ChannelKind.FORUM)
        ]
        return json_response(
            {
                "guild": shapes.guild(world, gateway=False),
                "bot_user_id": str(world.bot_user_id),
                "channels": guild_channels,
                "threads": [_channel_state(world, c) for c in world.threads()],
                "dms": [
                    {
                        **_channel_state(world, world.channels[channel_id]),
                        "user_id": str(user_id),
                        "dms_open": world.user(user_id).dms_open,
                    }
                    for user_id, channel_id in world.dms.items()
                ],
                "members": [shapes.member(world, m) for m in world.members.values()],
                "absent": [str(user_id) for user_id in sorted(world.absent)],
                "interactions": [
                    interactions.describe(world, i) for i in world.interactions.values()
                ],
                "requests": {
                    route: {str(status): n for status, n in sorted(by_status.items())}
                    for route, by_status in sorted(self.counts.by_route.items())
                },
                "faults": [f.describe() for f in self.faults.faults],
                "gateway": self._gateway_state(),
            }
        )


class StandInControl:
    """A typed httpx client for the control API (tests, the soak, the report)."""

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self._http = httpx.AsyncClient(base_url=f"{self.url}{CONTROL_PREFIX}", timeout=timeout)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        response = await self._http.request(method, path, json=body)
        response.raise_for_status()
        return response.json()

    # -- faults -------------------------------------------------------------------------------
    async def add_fault(
        self,
        route: str,
        action: str,
        *,
        channel_id: int | None = None,
        status: int | None = None,
        code: int | None = None,
        message: str | None = None,
        retry_after: float | None = None,
        global_: bool = False,
        seconds: float | None = None,
        times: int | None = 1,
    ) -> int:
        """Add a fault; returns its id. `times=None` applies it until cleared."""
        body: dict[str, Any] = {"route": route, "action": action, "times": times, "global": global_}
        optional = {
            "channel_id": channel_id,
            "status": status,
            "code": code,
            "message": message,
            "retry_after": retry_after,
            "seconds": seconds,
        }
        body.update({key: value for key, value in optional.items() if value is not None})
        answer = await self._call("POST", "/faults", body)
        return int(answer["id"])

    async def faults(self) -> list[dict[str, Any]]:
        answer = await self._call("GET", "/faults")
        found: list[dict[str, Any]] = answer["faults"]
        return found

    async def frozen(self) -> int:
        """How many requests a `freeze` fault holds right now."""
        answer = await self._call("GET", "/faults")
        return int(answer["frozen"])

    async def clear_faults(self) -> None:
        await self._call("DELETE", "/faults")

    # -- gateway ------------------------------------------------------------------------------
    async def close_gateway(self, code: int = 4000) -> bool:
        return bool((await self._call("POST", "/gateway/close", {"code": code}))["closed"])

    async def reconnect_gateway(self) -> bool:
        return bool((await self._call("POST", "/gateway/reconnect"))["sent"])

    async def invalid_session(self, *, resumable: bool = False) -> bool:
        answer = await self._call("POST", "/gateway/invalid-session", {"resumable": resumable})
        return bool(answer["sent"])

    async def gateway(self) -> dict[str, Any]:
        found: dict[str, Any] = await self._call("GET", "/gateway")
        return found

    # -- world switches -----------------------------------------------------------------------
    async def deny_channel(self, channel_id: int, code: int = 50001) -> None:
        await self._call("POST", f"/channels/{channel_id}/deny", {"code": code})

    async def allow_channel(self, channel_id: int) -> None:
        await self._call("POST", f"/channels/{channel_id}/allow")

    async def set_dms(self, user_id: int, *, open: bool) -> None:
        await self._call("POST", f"/users/{user_id}/dms", {"open": open})

    async def member_absent(self, user_id: int) -> None:
        await self._call("POST", f"/members/{user_id}/absent")

    async def member_present(self, user_id: int) -> None:
        await self._call("POST", f"/members/{user_id}/present")

    async def set_roles(self, user_id: int, role_ids: list[int]) -> None:
        """The member holds exactly these roles (they come with the member's interactions)."""
        await self._call(
            "PUT", f"/members/{user_id}/roles", {"role_ids": [str(r) for r in role_ids]}
        )

    # -- interactions -------------------------------------------------------------------------
    async def press(
        self, *, channel_id: int, message_id: int, custom_id: str, user_id: int
    ) -> tuple[int, str]:
        """Press a button on a stored message; returns (interaction id, token)."""
        answer = await self._call(
            "POST",
            "/interactions",
            {
                "type": "component",
                "channel_id": str(channel_id),
                "message_id": str(message_id),
                "custom_id": custom_id,
                "user_id": str(user_id),
            },
        )
        return int(answer["interaction_id"]), str(answer["token"])

    async def submit_modal(
        self,
        *,
        channel_id: int,
        custom_id: str,
        user_id: int,
        values: dict[str, str],
        message_id: int | None = None,
    ) -> tuple[int, str]:
        body: dict[str, Any] = {
            "type": "modal",
            "channel_id": str(channel_id),
            "custom_id": custom_id,
            "user_id": str(user_id),
            "values": values,
        }
        if message_id is not None:
            body["message_id"] = str(message_id)
        answer = await self._call("POST", "/interactions", body)
        return int(answer["interaction_id"]), str(answer["token"])

    async def interaction(self, interaction_id: int) -> dict[str, Any]:
        found: dict[str, Any] = await self._call("GET", f"/interactions/{interaction_id}")
        return found

    async def wait_interaction(
        self,
        interaction_id: int,
        until: Callable[[dict[str, Any]], bool],
        *,
        within: float = 5.0,
        poll: float = 0.02,
    ) -> dict[str, Any]:
        """Poll an interaction's record until `until` holds (TimeoutError after `within` s)."""
        deadline = time.monotonic() + within
        while True:
            found = await self.interaction(interaction_id)
            if until(found):
                return found
            if time.monotonic() > deadline:
                raise TimeoutError(f"interaction {interaction_id} never matched: {found}")
            await asyncio.sleep(poll)

    # -- inspection ---------------------------------------------------------------------------
    async def state(self) -> dict[str, Any]:
        found: dict[str, Any] = await self._call("GET", "/state")
        return found

    async def messages(self, channel_id: int) -> list[dict[str, Any]]:
        """The channel's stored messages, oldest first."""
        answer = await self._call("GET", f"/channels/{channel_id}/messages")
        found: list[dict[str, Any]] = answer["messages"]
        return found

    async def nonce_counts(self, channel_id: int) -> dict[str, int]:
        answer = await self._call("GET", f"/channels/{channel_id}/messages")
        found: dict[str, int] = answer["nonce_counts"]
        return found
