"""Creating and editing messages as Discord does: limits, nonces, forwards, trimmed content.

Shared by the channel routes, forum threads and the interaction webhooks. Every change that
lands in a channel is also dispatched on the gateway (MESSAGE_CREATE/UPDATE/DELETE).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from genji_devstack.discord_standin import errors, limits, shapes
from genji_devstack.discord_standin.gateway import Gateway
from genji_devstack.discord_standin.world import Channel, ChannelKind, Message, World

FORWARD = 1
EPHEMERAL = 1 << 6
LOADING = 1 << 7
_KEPT_FLAGS = EPHEMERAL | (1 << 2) | (1 << 12)  # ephemeral, suppress embeds, suppress notify


@dataclass
class Created:
    message: Message
    new: bool


def check_writable(world: World, channel: Channel) -> None:
    if channel.denied_code is not None:
        raise errors.denied(channel.denied_code)
    if channel.kind is ChannelKind.DM and channel.recipient_id is not None:
        if not world.user(channel.recipient_id).dms_open:
            raise errors.cannot_dm()
    if channel.kind is ChannelKind.FORUM:
        # A forum holds threads only; posting into it directly is refused like this.
        raise errors.DiscordError(400, 50008, "Cannot send messages in a non-text channel")


def _embeds(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "rich", **embed} for embed in body.get("embeds") or []]


def _snapshot(world: World, source: Message) -> dict[str, Any]:
    shaped = shapes.message(world, source)
    kept = (
        "type",
        "content",
        "embeds",
        "attachments",
        "timestamp",
        "edited_timestamp",
        "flags",
        "mentions",
        "mention_roles",
        "components",
    )
    return {"message": {key: shaped[key] for key in kept if key in shaped}}


def _forward(world: World, reference: dict[str, Any]) -> tuple[dict[str, Any], Message]:
    try:
        source_channel = world.channel(int(reference["channel_id"]))
        source_id = int(reference["message_id"])
    except (KeyError, TypeError, ValueError):
        raise errors.invalid_form(
            {
                "message_reference": {
                    "_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]
                }
            }
        ) from None
    source = source_channel.message(source_id) if source_channel is not None else None
    if source_channel is None or source is None:
        raise errors.unknown_message()
    stored = {
        "type": FORWARD,
        "message_id": str(source.id),
        "channel_id": str(source_channel.id),
    }
    if source_channel.is_guild_channel:
        stored["guild_id"] = str(world.guild_id)
    return stored, source


async def create(
    world: World,
    gateway: Gateway,
    channel: Channel,
    body: dict[str, Any],
    *,
    nonce_window: float,
    author_id: int | None = None,
    message_id: int | None = None,
    webhook_id: int | None = None,
    interaction_id: int | None = None,
    path: limits.Path = (),
    store: bool = True,
) -> Created:
    """Validate and store a message (store=False: build it only, for ephemeral answers)."""
    author = world.bot_user_id if author_id is None else author_id
    reference = body.get("message_reference")
    forwarding = isinstance(reference, dict) and reference.get("type") == FORWARD
    limits.check_message(body, path=path, forwarding=forwarding)
    nonce = body.get("nonce")
    nonce_text = str(nonce) if nonce is not None else None
    if nonce_text is not None and body.get("enforce_nonce") and store:
        earlier = world.by_nonce(channel, author, nonce_text, nonce_window)
        if earlier is not None:
            return Created(message=earlier, new=False)
    stored_reference: dict[str, Any] | None = None
    snapshots: list[dict[str, Any]] = []
    if forwarding:
        assert isinstance(reference, dict)
        stored_reference, source = _forward(world, reference)
        snapshots = [_snapshot(world, source)]
    elif isinstance(reference, dict) and reference.get("message_id") is not None:
        stored_reference = {
            "type": 0,
            "message_id": str(reference["message_id"]),
            "channel_id": str(reference.get("channel_id", channel.id)),
        }
    content = body.get("content")
    message = Message(
        id=message_id if message_id is not None else world.ids.next(),
        channel_id=channel.id,
        author_id=author,
        content="" if forwarding or not isinstance(content, str) else content.strip(),
        embeds=[] if forwarding else _embeds(body),
        components=[] if forwarding else list(body.get("components") or []),
        nonce=nonce_text,
        allowed_mentions=body.get("allowed_mentions"),
        flags=int(body.get("flags") or 0) & _KEPT_FLAGS,
        reference=stored_reference,
        snapshots=snapshots,
        webhook_id=webhook_id,
        interaction_id=interaction_id,
    )
    if store:
        world.store(channel, message)
        await gateway.dispatch("MESSAGE_CREATE", dispatched(world, message))
    return Created(message=message, new=True)


def apply_edit(message: Message, body: dict[str, Any]) -> None:
    """Replace the parts of a message an edit names (null clears a part)."""
    merged: dict[str, Any] = {
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
    }
    for key in ("content", "embeds", "components"):
        if key in body:
            merged[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
    limits.check_message(merged, forwarding=bool(message.snapshots))
    message.content = merged["content"].strip() if isinstance(merged["content"], str) else ""
    message.embeds = [
        {"type": "rich", **{k: v for k, v in e.items() if k != "type"}} for e in merged["embeds"]
    ]
    message.components = list(merged["components"])
    if "allowed_mentions" in body:
        message.allowed_mentions = body["allowed_mentions"]
    if body.get("flags") is not None:
        message.flags = (message.flags & EPHEMERAL) | (int(body["flags"]) & _KEPT_FLAGS)
    message.flags &= ~LOADING
    message.edited_at = datetime.now(UTC)


async def edit(
    world: World, gateway: Gateway, channel: Channel, message: Message, body: dict[str, Any]
) -> Message:
    if message.author_id != world.bot_user_id:
        raise errors.DiscordError(403, 50005, "Cannot edit a message authored by another user")
    apply_edit(message, body)
    if channel.message(message.id) is not None:
        await gateway.dispatch("MESSAGE_UPDATE", dispatched(world, message))
    return message


async def delete(world: World, gateway: Gateway, channel: Channel, message: Message) -> None:
    channel.messages.remove(message)
    data: dict[str, Any] = {"id": str(message.id), "channel_id": str(channel.id)}
    if channel.is_guild_channel:
        data["guild_id"] = str(world.guild_id)
    await gateway.dispatch("MESSAGE_DELETE", data)


def dispatched(world: World, message: Message) -> dict[str, Any]:
    """A message as MESSAGE_CREATE/UPDATE carry it (with the author's member in a guild)."""
    shaped = shapes.message(world, message)
    if "guild_id" in shaped:
        member = world.member(message.author_id)
        if member is not None:
            shaped["member"] = {
                k: v for k, v in shapes.member(world, member).items() if k != "user"
            }
    return shaped
