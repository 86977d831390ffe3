"""The key grant and rank tier answers the bot reads, as the API serves them."""

from __future__ import annotations

import msgspec


class KeyGrantResponse(msgspec.Struct, frozen=True, kw_only=True):
    key_id: int
    grant_key: str
    item: int
    key_type: str
    granted: bool
    """False when this item of the grant had already been granted; nothing changed."""


class XpTier(msgspec.Struct, frozen=True, kw_only=True):
    xp: int
    rank: int
    """Ranks earned in all (xp / 100)."""
    prestige: int
    main_tier: int
    main_tier_name: str
    sub_tier: int
    sub_tier_name: str

    @property
    def name(self) -> str:
        return f"{self.main_tier_name} {self.sub_tier_name}"


class XpTierChange(msgspec.Struct, frozen=True, kw_only=True):
    old: XpTier
    new: XpTier
    rank_change: bool
    """The main or sub tier name differs."""
    prestige_change: bool
