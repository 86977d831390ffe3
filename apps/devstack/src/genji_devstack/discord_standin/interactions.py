"""Interactions: INTERACTION_CREATE payloads for presses and modal submits, the callback
route and the interaction webhook (followups, @original).

Discord's rules kept here: the first callback must come within the interaction timeout (3 s by
default) or the token is unknown (10062); a second callback is 40060; followups and @original
work for 15 minutes after the interaction (then 50027) and only once it was acknowledged. The
first followup after a deferred (type 5) answer fills the deferred "thinking" message.
Ephemeral answers are kept on the interaction, never in the channel.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from genji_devstack.discord_standin import errors, messages, shapes
from genji_devstack.discord_standin.gateway import Gateway
from genji_devstack.discord_standin.wire import json_response, read_body, snowflake
from genji_devstack.discord_standin.world import Channel, Interaction, Message, World

if TYPE_CHECKING:
    from genji_devstack.discord_standin.rest import RestConfig

PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE = 6
UPDATE_MESSAGE = 7
MODAL = 9
COMPONENT = 3
MODAL_SUBMIT = 5
BUTTON = 2
TEXT_INPUT = 4
ATTACHMENT_SIZE_LIMIT = 26_214_400


def new_interaction(
    world: World,
    *,
    kind: str,
    channel_id: int,
    message_id: int | None,
    custom_id: str,
    user_id: int,
    values: dict[str, str] | None = None,
    component_type: int = BUTTON,
) -> tuple[Interaction, dict[str, Any]]:
    """A stored interaction and the INTERACTION_CREATE payload announcing it (raises
    DiscordError when the channel or message is unknown)."""
    channel = world.channel(channel_id)
    if channel is None:
        raise errors.unknown_channel()
    message = channel.message(message_id) if message_id is not None else None
    if message_id is not None and message is None:
        raise errors.unknown_message()
    if kind == "component":
        kind_number = COMPONENT
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if component_type != BUTTON:
            data["values"] = list((values or {}).values())
    elif kind == "modal":
        kind_number = MODAL_SUBMIT
        rows = [
            {"type": 1, "components": [{"type": TEXT_INPUT, "custom_id": key, "value": value}]}
            for key, value in (values or {}).items()
        ]
        data = {"custom_id": custom_id, "components": rows}
    else:
        raise errors.invalid_form(
            {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": "component or modal"}]}}
        )
    interaction = Interaction(
        id=world.ids.next(),
        token=f"standin-{secrets.token_urlsafe(24)}",
        type=kind_number,
        channel_id=channel_id,
        message_id=message_id,
        user_id=user_id,
        custom_id=custom_id,
        data=data,
    )
    world.interactions[interaction.id] = interaction
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(world.bot_user_id),
        "type": kind_number,
        "data": data,
        "channel_id": str(channel_id),
        "channel": shapes.channel(world, channel),
        "token": interaction.token,
        "version": 1,
        "app_permissions": shapes.BOT_PERMISSIONS,
        "locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if channel.is_guild_channel:
        member = world.member(user_id)
        if member is None:
            raise errors.unknown_member()
        payload.update(
            guild_id=str(world.guild_id),
            guild_locale="en-US",
            member={**shapes.member(world, member), "permissions": "0"},
            authorizing_integration_owners={"0": str(world.guild_id)},
            context=0,
        )
    else:
        payload.update(
            user=shapes.user(world.user(user_id)),
            authorizing_integration_owners={"0": str(world.guild_id)},
            context=1,
        )
    if message is not None:
        payload["message"] = shapes.message(world, message)
    return interaction, payload


def describe(world: World, interaction: Interaction) -> dict[str, Any]:
    """What an interaction received: its callback, followups and ephemeral messages."""

    def shown(message_id: int) -> dict[str, Any] | None:
        found = _find(world, interaction, message_id)
        return shapes.message(world, found) if found is not None else None

    return {
        "id": str(interaction.id),
        "token": interaction.token,
        "type": interaction.type,
        "custom_id": interaction.custom_id,
        "channel_id": str(interaction.channel_id),
        "message_id": str(interaction.message_id) if interaction.message_id else None,
        "user_id": str(interaction.user_id),
        "acknowledged": interaction.callback_type is not None,
        "callback_type": interaction.callback_type,
        "responses": interaction.responses,
        "original": shown(interaction.original_message_id)
        if interaction.original_message_id is not None
        else None,
        "followups": [shown(message_id) for message_id in interaction.followup_ids],
    }


def _find(world: World, interaction: Interaction, message_id: int) -> Message | None:
    for message in interaction.ephemeral:
        if message.id == message_id:
            return message
    return world.find_message(message_id)


def _with_response(request: web.Request) -> bool:
    return request.query.get("with_response", "").lower() in ("1", "true")


def _answer(data: Any, status: int = 200) -> web.Response:
    return json_response(data, status)


class Hooks:
    def __init__(self, world: World, gateway: Gateway, config: RestConfig) -> None:
        self.world = world
        self.gateway = gateway
        self.config = config

    def _channel(self, interaction: Interaction) -> Channel:
        found = self.world.channel(interaction.channel_id)
        if found is None:
            raise errors.unknown_channel()
        return found

    async def _post(
        self, interaction: Interaction, body: dict[str, Any], *, ephemeral: bool
    ) -> Message:
        channel = self._channel(interaction)
        flags = int(body.get("flags") or 0) | (messages.EPHEMERAL if ephemeral else 0)
        created = await messages.create(
            self.world,
            self.gateway,
            channel,
            {**body, "flags": flags},
            nonce_window=0,
            webhook_id=self.world.bot_user_id,
            interaction_id=interaction.id,
            store=not ephemeral,
        )
        if ephemeral:
            interaction.ephemeral.append(created.message)
        return created.message

    # -- POST /interactions/{interaction_id}/{token}/callback ----------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        interaction = self.world.interactions.get(snowflake(request, "interaction_id"))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise errors.unknown_interaction()
        if interaction.callback_type is not None:
            raise errors.already_acknowledged()
        if time.monotonic() - interaction.created_monotonic > self.config.interaction_timeout:
            raise errors.unknown_interaction()
        body = await read_body(request)
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in (
            PONG,
            CHANNEL_MESSAGE,
            DEFERRED_CHANNEL_MESSAGE,
            DEFERRED_UPDATE,
            UPDATE_MESSAGE,
            MODAL,
        ):
            raise errors.invalid_form(
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_CHOICES",
                                "message": "Value must be one of valid types.",
                            }
                        ]
                    }
                }
            )
        ephemeral = bool(int(data.get("flags") or 0) & messages.EPHEMERAL)
        message: Message | None = None
        if kind == CHANNEL_MESSAGE:
            message = await self._post(interaction, data, ephemeral=ephemeral)
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            channel = self._channel(interaction)
            flags = messages.LOADING | (messages.EPHEMERAL if ephemeral else 0)
            message = Message(
                id=self.world.ids.next(),
                channel_id=channel.id,
                author_id=self.world.bot_user_id,
                content="",
                embeds=[],
                components=[],
                nonce=None,
                allowed_mentions=None,
                flags=flags,
                webhook_id=self.world.bot_user_id,
                interaction_id=interaction.id,
            )
            if ephemeral:
                interaction.ephemeral.append(message)
            else:
                self.world.store(channel, message)
        elif kind in (UPDATE_MESSAGE, DEFERRED_UPDATE) and interaction.message_id is not None:
            channel = self._channel(interaction)
            message = channel.message(interaction.message_id)
            if message is None:
                raise errors.unknown_message()
            if kind == UPDATE_MESSAGE:
                await messages.edit(self.world, self.gateway, channel, message, data)
        elif kind == MODAL and not (data.get("custom_id") and data.get("title")):
            raise errors.invalid_form(
                {
                    "data": {
                        "custom_id": {
                            "_errors": [
                                {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}
                            ]
                        }
                    }
                }
            )
        interaction.callback_type = int(kind)
        interaction.responses.append({"kind": "callback", "type": kind, "data": data})
        if message is not None:
            interaction.original_message_id = message.id
        if not _with_response(request):
            return web.Response(status=204)
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            resource["message"] = shapes.message(self.world, message)
        return _answer(
            {
                "interaction": {
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "response_message_id": str(message.id) if message is not None else None,
                    "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                    "response_message_ephemeral": ephemeral,
                },
                "resource": resource,
            }
        )

    # -- the interaction webhook --------------------------------------------------------------
    def _hooked(self, request: web.Request) -> Interaction:
        if snowflake(request, "application_id") != self.world.bot_user_id:
            raise errors.unknown_webhook()
        token = request.match_info["token"]
        for interaction in self.world.interactions.values():
            if interaction.token == token:
                if time.monotonic() - interaction.created_monotonic > self.config.followup_ttl:
                    raise errors.DiscordError(401, 50027, "Invalid Webhook Token")
                if interaction.callback_type is None:
                    raise errors.unknown_webhook()
                return interaction
        raise errors.unknown_webhook()

    def _target(self, request: web.Request, interaction: Interaction) -> tuple[Message, Channel]:
        raw = request.match_info["message_id"]
        if raw == "@original":
            message_id = interaction.original_message_id
        elif raw.isdigit():
            message_id = int(raw)
        else:
            raise errors.unknown_message()
        owned = message_id is not None and (
            message_id == interaction.original_message_id or message_id in interaction.followup_ids
        )
        found = _find(self.world, interaction, message_id) if owned and message_id else None
        if found is None:
            raise errors.unknown_message()
        channel = self._channel(interaction)
        return found, channel

    async def followup(self, request: web.Request) -> web.Response:
        interaction = self._hooked(request)
        body = await read_body(request)
        ephemeral = bool(int(body.get("flags") or 0) & messages.EPHEMERAL)
        interaction.responses.append({"kind": "followup", "data": body})
        original = (
            _find(self.world, interaction, interaction.original_message_id)
            if interaction.original_message_id is not None
            else None
        )
        if original is not None and original.flags & messages.LOADING:
            # The deferred "thinking" message becomes the first followup.
            channel = self._channel(interaction)
            messages.apply_edit(original, body)
            original.edited_at = None
            if channel.message(original.id) is not None:
                await self.gateway.dispatch(
                    "MESSAGE_CREATE", messages.dispatched(self.world, original)
                )
            message = original
        else:
            message = await self._post(interaction, body, ephemeral=ephemeral)
        interaction.followup_ids.append(message.id)
        if request.query.get("wait", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        return _answer(shapes.message(self.world, message))

    async def get(self, request: web.Request) -> web.Response:
        interaction = self._hooked(request)
        message, _ = self._target(request, interaction)
        return _answer(shapes.message(self.world, message))

    async def edit(self, request: web.Request) -> web.Response:
        interaction = self._hooked(request)
        message, channel = self._target(request, interaction)
        body = await read_body(request)
        interaction.responses.append({"kind": "edit", "message_id": str(message.id), "data": body})
        await messages.edit(self.world, self.gateway, channel, message, body)
        return _answer(shapes.message(self.world, message))

    async def delete(self, request: web.Request) -> web.Response:
        interaction = self._hooked(request)
        message, channel = self._target(request, interaction)
        interaction.responses.append({"kind": "delete", "message_id": str(message.id)})
        if message in interaction.ephemeral:
            interaction.ephemeral.remove(message)
        elif channel.message(message.id) is not None:
            await messages.delete(self.world, self.gateway, channel, message)
        return web.Response(status=204)
