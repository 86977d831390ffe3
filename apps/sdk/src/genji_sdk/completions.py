"""The completion routes' answers the bot reads, as the API serves them."""

from __future__ import annotations

from typing import Literal

import msgspec

from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import XpType

CompletionState = Literal["pending", "verified", "rejected"]


class CompletionSubmission(msgspec.Struct, frozen=True, kw_only=True):
    """GET /completions/{id}/submission."""

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


class CompletionAnnouncement(msgspec.Struct, frozen=True, kw_only=True):
    """GET /completions/{id}/announcement: a completion's current state as the bot's cards and
    verdict workflow read it."""

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


class PostUpvotes(msgspec.Struct, frozen=True, kw_only=True):
    """GET /completions/upvoting/{message_id}."""

    completion_id: int
    message_id: int
    upvotes: int


class UpvoteResponse(msgspec.Struct, frozen=True, kw_only=True):
    """POST /completions/upvoting."""

    job_status: JobStatusResponse | None
    """The announcement job when this vote reached a multiple of ten."""
    upvotes: int


class CompletionXpResponse(msgspec.Struct, frozen=True, kw_only=True):
    """POST /completions/{id}/xp."""

    xp_type: XpType | None
    """Completion, Record or World Record; None when the run earns no XP."""
    rank: int | None
    granted: bool
    """False when the reward had been granted already (a world record once per map and user)."""
    previous_amount: int | None = None
    new_amount: int | None = None
    job_status: JobStatusResponse | None = None
