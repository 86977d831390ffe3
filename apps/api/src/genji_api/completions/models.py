"""Request and response bodies of the completion routes; the answers the bot reads are the
SDK's (genji_sdk.completions), re-exported here."""

from __future__ import annotations

from typing import Annotated

import msgspec
from genji_sdk.completions import (
    CompletionAnnouncement,
    CompletionState,
    CompletionSubmission,
    CompletionXpResponse,
    PostUpvotes,
    UpvoteResponse,
)
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import OverwatchCode

from genji_api.http.types import RequestBody, ResponseBody

__all__ = (
    "CompletionAnnouncement",
    "CompletionPatchRequest",
    "CompletionPatched",
    "CompletionState",
    "CompletionSubmission",
    "CompletionSubmissionResponse",
    "CompletionSubmitRequest",
    "CompletionXpRequest",
    "CompletionXpResponse",
    "PostUpvotes",
    "UpvoteRequest",
    "UpvoteResponse",
    "VerificationRequest",
)

HttpUrl = Annotated[str, msgspec.Meta(pattern=r"^https?://[^\s/$.?#][^\s]*$", max_length=2048)]
PositiveTime = Annotated[float, msgspec.Meta(gt=0)]


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


class CompletionPatchRequest(RequestBody, frozen=True, kw_only=True):
    """The Discord messages the bot posted for a completion."""

    verification_id: int | None = None
    message_id: int | None = None


class CompletionPatched(ResponseBody, frozen=True, kw_only=True):
    """The recorded result of a patch (its effect receipt); the route answers 204."""

    completion_id: int


class CompletionXpRequest(RequestBody, frozen=True, kw_only=True):
    """No fields: the API decides the reward from the completion's current state."""
