"""Key grant and rank tier bodies."""

from __future__ import annotations

from typing import Annotated

import msgspec

from genji_api.http.ids import INTEGER_MAX
from genji_api.http.types import RequestBody, ResponseBody

GrantKey = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class KeyGrantRequest(RequestBody, frozen=True, kw_only=True):
    grant_key: GrantKey | None = None
    """The grant this key belongs to (e.g. "xp:42:prestige"); each of its items is granted at
    most once. Without one, the request is a grant of its own."""
    item: Annotated[int, msgspec.Meta(ge=1, le=100)] = 1
    key_type: Annotated[str, msgspec.Meta(min_length=1, max_length=100)] | None = None
    """The active key type when absent."""


class KeyGrantResponse(ResponseBody, frozen=True, kw_only=True):
    key_id: int
    grant_key: str
    item: int
    key_type: str
    granted: bool
    """False when this item of the grant had already been granted; nothing changed."""


class XpTier(ResponseBody, frozen=True, kw_only=True):
    xp: int
    rank: int
    """Ranks earned in all (xp / 100)."""
    prestige: int
    main_tier: int
    main_tier_name: str
    sub_tier: int
    sub_tier_name: str


class XpTierChange(ResponseBody, frozen=True, kw_only=True):
    old: XpTier
    new: XpTier
    rank_change: bool
    """The main or sub tier name differs."""
    prestige_change: bool


XpAmount = Annotated[int, msgspec.Meta(ge=0, le=INTEGER_MAX)]
