"""The world's objects as Discord's JSON: users, members, roles, channels, messages, the guild.

The shapes carry the fields discord.py 2.7 reads without a default (for example a member's
`flags`, a thread's `thread_metadata` with `archive_timestamp`, a forum tag's `emoji_name`).
"""

from __future__ import annotations

from typing import Any

from genji_devstack.discord_standin.world import (
    Channel,
    ChannelKind,
    Member,
    Message,
    Role,
    User,
    World,
    iso,
)

THREAD_ARCHIVE_MINUTES = 4320
# Everything but administrator: what the seeded bot may do in its guild.
BOT_PERMISSIONS = str((1 << 41) - 1 - 8)


def user(value: User) -> dict[str, Any]:
    return {
        "id": str(value.id),
        "username": value.username,
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
        "bot": value.bot,
        "public_flags": 0,
    }


def role(value: Role) -> dict[str, Any]:
    return {
        "id": str(value.id),
        "name": value.name,
        "color": 0,
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": value.position,
        "permissions": BOT_PERMISSIONS if value.position == 0 else "0",
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def member(world: World, value: Member) -> dict[str, Any]:
    return {
        "user": user(world.user(value.user_id)),
        "nick": None,
        "avatar": None,
        "banner": None,
        "roles": [str(role_id) for role_id in value.role_ids],
        "joined_at": iso(value.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }


def forum_tags(channel: Channel) -> list[dict[str, Any]]:
    return [
        {
            "id": str(tag.id),
            "name": tag.name,
            "moderated": False,
            "emoji_id": None,
            "emoji_name": None,
        }
        for tag in channel.tags
    ]


def _last_message_id(channel: Channel) -> str | None:
    return str(channel.messages[-1].id) if channel.messages else None


def channel(world: World, value: Channel) -> dict[str, Any]:
    if value.kind is ChannelKind.DM:
        recipient = value.recipient_id if value.recipient_id is not None else 0
        return {
            "id": str(value.id),
            "type": int(value.kind),
            "last_message_id": _last_message_id(value),
            "recipients": [user(world.user(recipient))],
            "flags": 0,
        }
    if value.kind is ChannelKind.PUBLIC_THREAD:
        return thread(world, value)
    shaped: dict[str, Any] = {
        "id": str(value.id),
        "type": int(value.kind),
        "guild_id": str(world.guild_id),
        "name": value.name,
        "position": value.position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "rate_limit_per_user": 0,
        "flags": 0,
        "last_message_id": _last_message_id(value),
    }
    if value.kind is ChannelKind.FORUM:
        shaped.update(
            available_tags=forum_tags(value),
            default_reaction_emoji=None,
            default_sort_order=None,
            default_forum_layout=0,
            default_thread_rate_limit_per_user=0,
            default_auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    return shaped


def thread(world: World, value: Channel) -> dict[str, Any]:
    archived_at = value.archived_at or value.created_at
    return {
        "id": str(value.id),
        "type": int(value.kind),
        "guild_id": str(world.guild_id),
        "parent_id": str(value.parent_id),
        "owner_id": str(value.owner_id),
        "name": value.name,
        "last_message_id": _last_message_id(value),
        "message_count": len(value.messages),
        "total_message_sent": value.sent_total,
        "member_count": 1,
        "rate_limit_per_user": 0,
        "flags": 0,
        "applied_tags": [str(tag) for tag in value.applied_tags],
        "thread_metadata": {
            "archived": value.archived,
            "auto_archive_duration": THREAD_ARCHIVE_MINUTES,
            "archive_timestamp": iso(archived_at),
            "locked": value.locked,
            "create_timestamp": iso(value.created_at),
        },
    }


def thread_member(world: World, value: Channel) -> dict[str, Any]:
    return {
        "id": str(value.id),
        "user_id": str(world.bot_user_id),
        "join_timestamp": iso(value.created_at),
        "flags": 1,
    }


def message(world: World, value: Message) -> dict[str, Any]:
    found = world.channel(value.channel_id)
    in_guild = found is not None and found.is_guild_channel
    shaped: dict[str, Any] = {
        "id": str(value.id),
        "channel_id": str(value.channel_id),
        "type": 0,
        "author": user(world.user(value.author_id)),
        "content": value.content,
        "timestamp": iso(value.created_at),
        "edited_timestamp": iso(value.edited_at) if value.edited_at else None,
        "tts": False,
        "mention_everyone": value.mentions_everyone(),
        "mentions": [user(world.user(user_id)) for user_id in value.mentioned_users()],
        "mention_roles": [str(role_id) for role_id in value.mentioned_roles()],
        "attachments": [],
        "embeds": value.embeds,
        "components": value.components,
        "pinned": False,
        "flags": value.flags,
    }
    if in_guild:
        shaped["guild_id"] = str(world.guild_id)
    if value.nonce is not None:
        shaped["nonce"] = value.nonce
    if value.reference is not None:
        shaped["message_reference"] = value.reference
    if value.snapshots:
        shaped["message_snapshots"] = value.snapshots
    if value.webhook_id is not None:
        shaped["webhook_id"] = str(value.webhook_id)
        shaped["application_id"] = str(value.webhook_id)
    if found is not None and found.kind is ChannelKind.PUBLIC_THREAD:
        shaped["position"] = found.messages.index(value) if value in found.messages else 0
    return shaped


def guild(world: World, *, gateway: bool) -> dict[str, Any]:
    """The guild as GET /guilds/{id} answers it, or (gateway=True) as GUILD_CREATE carries it."""
    shaped: dict[str, Any] = {
        "id": str(world.guild_id),
        "name": world.guild_name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(world.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": [role(value) for value in world.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
    }
    if gateway:
        guild_channels = [
            channel(world, value)
            for value in world.channels.values()
            if value.kind in (ChannelKind.TEXT, ChannelKind.FORUM)
        ]
        bot = world.member(world.bot_user_id)
        shaped.update(
            joined_at=iso(bot.joined_at) if bot is not None else None,
            large=False,
            unavailable=False,
            member_count=len(world.members),
            voice_states=[],
            members=[member(world, bot)] if bot is not None else [],
            channels=guild_channels,
            threads=[thread(world, value) for value in world.threads() if not value.archived],
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
        )
    return shaped


def application(world: World) -> dict[str, Any]:
    owner = world.user(world.owner_id)
    return {
        "id": str(world.bot_user_id),
        "name": world.application_name,
        "icon": None,
        "description": "",
        "bot_public": False,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": 0,
        "owner": user(owner),
        "team": None,
        "bot": user(world.user(world.bot_user_id)),
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "tags": [],
        "approximate_guild_count": 1,
    }
