"""Bodies of the link-codes routes."""

from __future__ import annotations

from typing import Annotated

import msgspec
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads.common import OverwatchCode

from genji_api.http.types import RequestBody, ResponseBody


class LinkCodesRequest(RequestBody, frozen=True, kw_only=True):
    official_code: OverwatchCode
    unofficial_code: OverwatchCode


class UnlinkCodesRequest(RequestBody, frozen=True, kw_only=True):
    official_code: OverwatchCode
    unofficial_code: OverwatchCode
    reason: Annotated[str, msgspec.Meta(min_length=1)]


class LinkCreated(ResponseBody, frozen=True, kw_only=True):
    link_id: int
    """The link operation's id."""
    job_status: JobStatusResponse
    """The newsfeed job, or the continuation that announces the link once the playtest exists."""


class LinkRemoved(ResponseBody, frozen=True, kw_only=True):
    job_status: JobStatusResponse
    """The unlinked_map newsfeed job."""
