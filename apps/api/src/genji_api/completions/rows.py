"""Typed rows of the completion queries, as the completion repositories select them.

Field names are the selected column names (`genji_api.rows`), so a query and its row type
change together. `time` is numeric(10, 2), read as a Decimal.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class SubmissionMap:
    id: int
    code: str
    official: bool
    playtesting: str


@dataclass(frozen=True)
class PendingRun:
    id: int
    time: Decimal
    verification_id: int | None


@dataclass(frozen=True)
class InsertedRun:
    """A run just inserted into core.completions or tournaments.completions."""

    id: int
    time: Decimal


@dataclass(frozen=True)
class PostedCompletion:
    id: int
    user_id: int


@dataclass(frozen=True)
class Submission:
    id: int
    code: str
    user_id: int
    time: Decimal
    screenshot: str
    video: str | None
    verified: bool
    verified_by: int | None
    reason: str | None
    completion: bool
    verification_id: int | None
    message_id: int | None


@dataclass(frozen=True)
class Announcement:
    id: int
    code: str
    map_name: str
    official: bool
    difficulty: str | None
    user_id: int
    time: Decimal
    screenshot: str
    video: str | None
    verified: bool
    verified_by: int | None
    reason: str | None
    completion: bool
    verification_id: int | None
    message_id: int | None
    latest_transition_id: int | None
    rank: int | None
    upvotes: int


@dataclass(frozen=True)
class PostedUpvotes:
    id: int
    upvotes: int


@dataclass(frozen=True)
class RewardedRun:
    id: int
    map_id: int
    user_id: int
    time: Decimal
    verified: bool
    completion: bool
    official: bool
    code: str


@dataclass(frozen=True)
class LockedCompletion:
    id: int
    verified: bool
    verified_by: int | None
    reason: str | None
    tournament_completion_id: int | None


@dataclass(frozen=True)
class Transition:
    """A row of completions.verification_transitions."""

    id: int
    completion_id: int
    verified: bool
    verified_by: int
    reason: str | None
