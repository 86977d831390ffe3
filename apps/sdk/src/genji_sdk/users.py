"""A user's answers the bot reads, as the API serves them."""

from __future__ import annotations

import msgspec


class SkillRankResponse(msgspec.Struct, frozen=True, kw_only=True):
    user_id: int
    rank: str
    ranked: bool
    """False for the rank of a user with no qualifying run yet (nothing to announce)."""
