"""Request and response bodies of the map routes."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import DifficultyAll, OverwatchCode

from genji_api.http.types import RequestBody, ResponseBody

PlaytestStatus = Literal["Approved", "In Progress", "Rejected"]
RawDifficulty = Annotated[float, msgspec.Meta(ge=0, le=10)]
UserId = Annotated[int, msgspec.Meta(gt=0)]


class MapCreatorRequest(RequestBody, frozen=True, kw_only=True):
    id: UserId
    is_primary: bool = False


class MapCreateRequest(RequestBody, frozen=True, kw_only=True):
    code: OverwatchCode
    map_name: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    creators: Annotated[list[MapCreatorRequest], msgspec.Meta(min_length=1)]
    category: Annotated[str, msgspec.Meta(min_length=1, max_length=50)] = "Classic"
    checkpoints: Annotated[int, msgspec.Meta(gt=0)] = 1
    official: bool = True
    playtesting: PlaytestStatus = "In Progress"
    hidden: bool = True
    difficulty: DifficultyAll | None = None
    """The difficulty label; stored as its band's midpoint raw value."""
    raw_difficulty: RawDifficulty | None = None
    guide_url: Annotated[str, msgspec.Meta(pattern=r"^https?://", max_length=2000)] | None = None


class MapCreateResponse(ResponseBody, frozen=True, kw_only=True):
    id: int
    code: str
    job_status: JobStatusResponse | None
    """The playtest-create job when the map entered playtesting, else null."""


class ArchiveRequest(RequestBody, frozen=True, kw_only=True):
    codes: Annotated[list[OverwatchCode], msgspec.Meta(min_length=1, max_length=500)]
    archived: bool
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=1000)]


class ArchiveResponse(ResponseBody, frozen=True, kw_only=True):
    codes: list[str]
    newsfeed_job: JobStatusResponse
    force_deny_jobs: list[JobStatusResponse]


class MapVisibilityRequest(RequestBody, frozen=True, kw_only=True):
    hidden: bool


class MapVisibilityResponse(ResponseBody, frozen=True, kw_only=True):
    code: str
    hidden: bool
