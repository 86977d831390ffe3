"""Payloads of the map-edit and playtest events consumed by the bot."""

from __future__ import annotations

import msgspec

from genji_sdk.payloads.common import DifficultyAll, OverwatchCode

__all__ = (
    "MapEditCreatedEvent",
    "MapEditResolvedEvent",
    "PlaytestApprovedEvent",
    "PlaytestCreatedEvent",
    "PlaytestForceAcceptedEvent",
    "PlaytestForceDeniedEvent",
    "PlaytestResetEvent",
    "PlaytestVoteCastEvent",
    "PlaytestVoteRemovedEvent",
)


class MapEditCreatedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.map_edit.created`: an edit request awaits moderation."""

    edit_request_id: int


class MapEditResolvedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.map_edit.resolved`: an edit request was accepted or rejected."""

    edit_request_id: int
    accepted: bool
    resolved_by: int
    rejection_reason: str | None = None


class PlaytestCreatedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.playtest.create`: a map entered playtesting and needs its thread."""

    code: OverwatchCode
    playtest_id: int


class PlaytestVoteCastEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.playtest.vote.cast`: refresh the playtest view after a vote."""

    voter_id: int
    difficulty_value: float
    thread_id: int


class PlaytestVoteRemovedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.playtest.vote.remove`: refresh the playtest view after a vote was withdrawn."""

    voter_id: int
    thread_id: int


class PlaytestApprovedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.playtest.approve`: the playtest closed with the voted difficulty."""

    verifier_id: int
    difficulty: DifficultyAll
    thread_id: int
    primary_creator_id: int
    code: OverwatchCode


class PlaytestForceAcceptedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.playtest.force_accept`: a moderator approved the map with a chosen difficulty."""

    difficulty: DifficultyAll
    verifier_id: int
    thread_id: int


class PlaytestForceDeniedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.playtest.force_deny`: the playtest was rejected or its map archived."""

    verifier_id: int
    reason: str
    thread_id: int


class PlaytestResetEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.playtest.reset`: votes and/or completions of a playtest were cleared."""

    # Persisted per reset, so a repeated reset is new work and an old one is detectably stale.
    transition_id: int
    verifier_id: int
    reason: str
    remove_votes: bool
    remove_completions: bool
    thread_id: int
