"""Guide request and response bodies (the legacy GuideResponse shape)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from genji_api.http.ids import UserId
from genji_api.http.types import RequestBody, ResponseBody

GuideUrl = Annotated[str, msgspec.Meta(pattern=r"^https?://", max_length=2000)]
"""As a new map's guide URL is checked; stored exactly as submitted: two submissions are the
same guide only if the strings match."""


class GuideRequest(RequestBody, frozen=True, kw_only=True):
    url: GuideUrl
    user_id: UserId


class GuideResponse(ResponseBody, frozen=True, kw_only=True):
    url: str
    user_id: int
