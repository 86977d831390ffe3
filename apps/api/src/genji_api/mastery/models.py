"""Mastery request and response bodies."""

from __future__ import annotations

from typing import Annotated

import msgspec

from genji_api.http.ids import UserId
from genji_api.http.types import RequestBody, ResponseBody


class MasteryRequest(RequestBody, frozen=True, kw_only=True):
    user_id: UserId
    map_name: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]


class MasteryResponse(ResponseBody, frozen=True, kw_only=True):
    map_name: str
    level: str | None
    previous_level: str | None
    earned: bool
    """True when this recompute raised the user to a higher level."""
