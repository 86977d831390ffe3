"""Bodies of the tournament administration routes."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from genji_api.http.types import RequestBody, ResponseBody


class RerollResponse(ResponseBody, frozen=True, kw_only=True):
    edition_id: int
    replaced_cycle_id: int
    cycle_id: int
    map_id: int
    map_code: str
    job_id: UUID


class PublishResultsRequest(RequestBody, frozen=True, kw_only=True):
    edition_id: int


class PublishResultsResponse(ResponseBody, frozen=True, kw_only=True):
    edition_id: int
    transition_id: int


class BootstrapResponse(ResponseBody, frozen=True, kw_only=True):
    edition_id: int
    transition_id: int
    cycle_ids: list[int]
    started_at: datetime
    ends_at: datetime
