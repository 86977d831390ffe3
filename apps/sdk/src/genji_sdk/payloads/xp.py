"""Payload of the XP grant event consumed by the bot."""

from __future__ import annotations

import msgspec

from genji_sdk.payloads.common import XpType

__all__ = ("XpGrantEvent",)


class XpGrantEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.xp.grant`: announce an XP grant and apply rank or prestige rewards."""

    # Persisted grant identity; rank/prestige keys and notices are deduplicated by it.
    grant_id: int
    user_id: int
    amount: int
    type: XpType
    previous_amount: int
    new_amount: int
    reason: str | None = None
