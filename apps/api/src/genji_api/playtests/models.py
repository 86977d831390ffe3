"""Request and response bodies of the playtest routes."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from genji_sdk.payloads import DifficultyAll

from genji_api.http.types import RequestBody, ResponseBody

DiscordId = Annotated[int, msgspec.Meta(gt=0)]
Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=1000)]


class ThreadBindRequest(RequestBody, frozen=True, kw_only=True):
    thread_id: DiscordId
    verification_id: DiscordId | None = None


class PlaytestResponse(ResponseBody, frozen=True, kw_only=True):
    id: int
    map_id: int
    thread_id: int | None
    verification_id: int | None


class VoteRequest(RequestBody, frozen=True, kw_only=True):
    difficulty: Annotated[float, msgspec.Meta(ge=0, le=10)]


class ApproveRequest(RequestBody, frozen=True, kw_only=True):
    verifier_id: DiscordId


class ForceAcceptRequest(RequestBody, frozen=True, kw_only=True):
    verifier_id: DiscordId
    difficulty: DifficultyAll


class ForceDenyRequest(RequestBody, frozen=True, kw_only=True):
    verifier_id: DiscordId
    reason: Reason


class ResetRequest(RequestBody, frozen=True, kw_only=True):
    verifier_id: DiscordId
    reason: Reason
    remove_votes: bool
    remove_completions: bool


class PlaytestCreator(ResponseBody, frozen=True, kw_only=True):
    id: int
    name: str
    is_primary: bool


class PlaytestVote(ResponseBody, frozen=True, kw_only=True):
    user_id: int
    name: str
    difficulty: float


class PlaytestTransition(ResponseBody, frozen=True, kw_only=True):
    id: int
    kind: str
    actor_id: int | None
    details: dict[str, Any]


class PlaytestStateResponse(ResponseBody, frozen=True, kw_only=True):
    """A playtest as it stands now, for handlers that reconcile to current state."""

    id: int
    map_id: int
    code: str
    map_name: str
    official: bool
    playtesting: str
    hidden: bool
    difficulty: str | None
    """The map's current difficulty label."""
    initial_difficulty: float | None
    thread_id: int | None
    verification_id: int | None
    completed: bool
    reset_generation: int
    creators: list[PlaytestCreator]
    """Primary creator first."""
    votes: list[PlaytestVote]
    last_reset: PlaytestTransition | None
    """The newest reset: an older reset's job is superseded by it."""
    verdict: PlaytestTransition | None
    """The approve, force accept or force deny that closed the playtest."""
    finalizable_vote_id: int | None
    """The vote transition that made the playtest finalizable (since its last reset)."""
