"""The mastery answer the bot reads, as the API serves it."""

from __future__ import annotations

import msgspec


class MasteryResponse(msgspec.Struct, frozen=True, kw_only=True):
    map_name: str
    level: str | None
    previous_level: str | None
    earned: bool
    """True when this recompute raised the user to a higher level."""
