"""Scalar types shared by several event payloads."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

__all__ = (
    "DifficultyAll",
    "NotificationChannel",
    "NotificationEventType",
    "OverwatchCode",
    "XpType",
)

OverwatchCode = Annotated[str, msgspec.Meta(min_length=4, max_length=6, pattern=r"^[A-Z0-9]+$")]

DifficultyAll = Literal[
    "Easy -",
    "Easy",
    "Easy +",
    "Medium -",
    "Medium",
    "Medium +",
    "Hard -",
    "Hard",
    "Hard +",
    "Very Hard -",
    "Very Hard",
    "Very Hard +",
    "Extreme -",
    "Extreme",
    "Extreme +",
    "Hell",
]

XpType = Literal[
    "Map Submission",
    "Playtest",
    "Guide",
    "Completion",
    "Record",
    "World Record",
    "Quest",
    "Other",
    "Tournament",
]

NotificationEventType = Literal[
    "verification_approved",
    "verification_rejected",
    "record_removed",
    "record_edited",
    "auto_verify_failed",
    "skill_role_update",
    "xp_gain",
    "rank_up",
    "prestige",
    "mastery_earned",
    "lootbox_earned",
    "playtest_update",
    "map_edit_approved",
    "map_edit_rejected",
    "quest_complete",
    "quest_rotation",
    "quest_rival_mention",
]

NotificationChannel = Literal["discord_dm", "discord_ping", "web"]
