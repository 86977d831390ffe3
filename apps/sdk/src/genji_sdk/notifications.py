"""Notification delivery defaults: which channels an event type uses without a preference."""

from __future__ import annotations

from typing import Final

import msgspec

from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads.common import NotificationChannel, NotificationEventType

DISCORD_CHANNELS: Final[frozenset[NotificationChannel]] = frozenset({"discord_dm", "discord_ping"})

# Snowflakes at or above this are real Discord accounts; smaller ids are test or fake users.
MIN_DISCORD_ID: Final = 10**18

_DM: Final[tuple[NotificationChannel, ...]] = ("discord_dm", "web")
_PING: Final[tuple[NotificationChannel, ...]] = ("discord_ping", "web")

DEFAULT_CHANNELS: Final[dict[NotificationEventType, tuple[NotificationChannel, ...]]] = {
    "verification_approved": _DM,
    "verification_rejected": _DM,
    "record_removed": _DM,
    "auto_verify_failed": _DM,
    "skill_role_update": _DM,
    "lootbox_earned": _DM,
    "playtest_update": _DM,
    "map_edit_approved": _DM,
    "map_edit_rejected": _DM,
    "quest_rival_mention": _DM,
    "xp_gain": _PING,
    "rank_up": _PING,
    "prestige": _PING,
    "mastery_earned": _PING,
    "quest_complete": ("discord_dm", "discord_ping", "web"),
    "quest_rotation": ("web",),
}
"""record_edited has no default: it is delivered only where a user turned it on."""


class NotificationCreatedResponse(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    job_status: JobStatusResponse | None
    """None when no Discord channel is enabled or the user is not a real Discord account."""


class PreferenceResponse(msgspec.Struct, frozen=True, kw_only=True):
    user_id: int
    event_type: NotificationEventType
    channels: dict[NotificationChannel, bool]
    """Every channel, from the user's explicit preference or the event type's default."""
