"""Newsfeed request and response bodies. A request body is a tagged NewsfeedPayload."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from genji_sdk.jobs import JobStatusResponse

from genji_api.http.types import ResponseBody


class NewsfeedCreatedResponse(ResponseBody, frozen=True, kw_only=True):
    newsfeed_id: int
    job_status: JobStatusResponse


class NewsfeedEntryResponse(ResponseBody, frozen=True, kw_only=True):
    id: int
    timestamp: datetime
    payload: dict[str, Any]
    """As stored; entries written before the current payload types are returned unchanged."""
