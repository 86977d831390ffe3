"""XP grant request and response bodies."""

from __future__ import annotations

from typing import Annotated

import msgspec
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import XpType

from genji_api.http.ids import INTEGER_MAX
from genji_api.http.types import RequestBody, ResponseBody


class XpGrantRequest(RequestBody, frozen=True, kw_only=True):
    amount: Annotated[int, msgspec.Meta(ge=0, le=INTEGER_MAX)]
    """The base amount; the current multiplier applies."""
    type: XpType
    reason: str | None = None


class XpGrantResponse(ResponseBody, frozen=True, kw_only=True):
    previous_amount: int
    new_amount: int
    job_status: JobStatusResponse
