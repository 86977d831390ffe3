"""Key grant and rank tier bodies; the answers the bot reads are the SDK's (genji_sdk.lootbox),
re-exported here."""

from __future__ import annotations

from typing import Annotated

import msgspec
from genji_sdk.lootbox import KeyGrantResponse, XpTier, XpTierChange

from genji_api.http.ids import INTEGER_MAX
from genji_api.http.types import RequestBody

__all__ = ("KeyGrantRequest", "KeyGrantResponse", "XpTier", "XpTierChange")

GrantKey = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class KeyGrantRequest(RequestBody, frozen=True, kw_only=True):
    grant_key: GrantKey | None = None
    """The grant this key belongs to (e.g. "xp:42:prestige"); each of its items is granted at
    most once. Without one, the request is a grant of its own."""
    item: Annotated[int, msgspec.Meta(ge=1, le=100)] = 1
    key_type: Annotated[str, msgspec.Meta(min_length=1, max_length=100)] | None = None
    """The active key type when absent."""


XpAmount = Annotated[int, msgspec.Meta(ge=0, le=INTEGER_MAX)]
