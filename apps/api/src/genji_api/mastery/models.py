"""Mastery request and response bodies."""

from __future__ import annotations

from typing import Annotated

import msgspec
from genji_sdk.mastery import MasteryResponse

from genji_api.http.ids import UserId
from genji_api.http.types import RequestBody

__all__ = ("MasteryRequest", "MasteryResponse")


class MasteryRequest(RequestBody, frozen=True, kw_only=True):
    user_id: UserId
    map_name: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
