"""Request and response bodies of the completion routes."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import OverwatchCode, XpType

from genji_api.http.types import RequestBody, ResponseBody

HttpUrl = Annotated[str, msgspec.Meta(pattern=r"^https?://[^\s/$.?#][^\s]*$", max_length=2048)]
PositiveTime = Annotated[float, msgspec.Meta(gt=0)]
CompletionState = Literal["pending", "verified", "rejected"]


class CompletionSubmitRequest(RequestBody, frozen=True, kw_only=True):
    code: OverwatchCode
    user_id: int
    time: PositiveTime
    screenshot: HttpUrl
    video: HttpUrl | None = None


class CompletionSubmissionResponse(ResponseBody, frozen=True, kw_only=True):
    job_status: JobStatusResponse | None
    """None when the run went to automatic (OCR) verification."""
    completion_id: int
    """0 for a tournament-only run that is not a personal best."""


class VerificationRequest(RequestBody, frozen=True, kw_only=True):
    verified: bool
    verified_by: int
    reason: str | None = None
    if_pending: bool = False
    """Record the verdict only while the run has none (409 otherwise): two moderators pressing
    Accept and Reject at once get one verdict, and the other is told it was already given."""


class UpvoteRequest(RequestBody, frozen=True, kw_only=True):
    user_id: int
    message_id: int


class UpvoteResponse(ResponseBody, frozen=True, kw_only=True):
    job_status: JobStatusResponse | None
    """The announcement job when this vote reached a multiple of ten."""
    upvotes: int


class CompletionPatchRequest(RequestBody, frozen=True, kw_only=True):
    """The Discord messages the bot posted for a completion."""

    verification_id: int | None = None
    message_id: int | None = None


class CompletionPatched(ResponseBody, frozen=True, kw_only=True):
    """The recorded result of a patch (its effect receipt); the route answers 204."""

    completion_id: int


class CompletionSubmission(ResponseBody, frozen=True, kw_only=True):
    id: int
    code: str
    user_id: int
    time: float
    screenshot: str
    video: str | None
    state: CompletionState
    completion: bool
    verified_by: int | None
    reason: str | None
    verification_id: int | None
    message_id: int | None


class CompletionAnnouncement(ResponseBody, frozen=True, kw_only=True):
    """A completion's current state as the bot's cards and verdict workflow read it."""

    id: int
    code: str
    map_name: str
    official: bool
    difficulty: str | None
    user_id: int
    name: str
    time: float
    screenshot: str
    video: str | None
    state: CompletionState
    completion: bool
    verified_by: int | None
    verified_by_name: str | None
    reason: str | None
    verification_id: int | None
    message_id: int | None
    latest_transition_id: int | None
    """The newest verdict given; a verdict job for an older one is stale."""
    rank: int | None
    """The run's place on the map's record board; None unless it is a verified record run."""
    upvotes: int


class PostUpvotes(ResponseBody, frozen=True, kw_only=True):
    completion_id: int
    message_id: int
    upvotes: int


class CompletionXpRequest(RequestBody, frozen=True, kw_only=True):
    """No fields: the API decides the reward from the completion's current state."""


class CompletionXpResponse(ResponseBody, frozen=True, kw_only=True):
    xp_type: XpType | None
    """Completion, Record or World Record; None when the run earns no XP."""
    rank: int | None
    granted: bool
    """False when the reward had been granted already (a world record once per map and user)."""
    previous_amount: int | None = None
    new_amount: int | None = None
    job_status: JobStatusResponse | None = None
