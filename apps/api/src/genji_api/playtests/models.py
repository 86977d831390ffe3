"""Request and response bodies of the playtest routes; the state the bot reads is the SDK's
(genji_sdk.playtests), re-exported here."""

from __future__ import annotations

from typing import Annotated

import msgspec
from genji_sdk.payloads import DifficultyAll
from genji_sdk.playtests import (
    PlaytestCreator,
    PlaytestStateResponse,
    PlaytestTransition,
    PlaytestVote,
)

from genji_api.http.types import RequestBody, ResponseBody

__all__ = (
    "PlaytestCreator",
    "PlaytestStateResponse",
    "PlaytestTransition",
    "PlaytestVote",
)

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
