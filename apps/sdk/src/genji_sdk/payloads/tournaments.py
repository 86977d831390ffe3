"""Payloads of the tournament events consumed by the bot."""

from __future__ import annotations

from datetime import datetime

import msgspec

__all__ = (
    "TournamentCompletionCreatedEvent",
    "TournamentCycleCompletedEvent",
    "TournamentCycleStartedEvent",
    "TournamentEditionResultsEvent",
    "TournamentLeaderboardEntry",
    "TournamentRolloverEvent",
    "TournamentVerificationChangedEvent",
)


class TournamentCompletionCreatedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.tournament.completion.created`: a tournament run needs manual review."""

    completion_id: int
    cycle_id: int
    user_id: int
    time: float
    video: str | None = None
    screenshot: str


class TournamentVerificationChangedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.tournament.verification.changed`: a tournament run was verified or rejected."""

    tournament_completion_id: int
    # Persisted per actual verdict; a replayed verdict reuses it.
    transition_id: int
    cycle_id: int
    user_id: int
    verified: bool
    time: float


class TournamentLeaderboardEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One row of a cycle's final standings."""

    rank: int
    user_id: int
    name: str
    time: float
    verified: bool
    completion: bool


class TournamentCycleCompletedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """Final standings of one category's cycle."""

    cycle_id: int
    category_id: int
    standings: list[TournamentLeaderboardEntry]
    winner_user_id: int | None = None


class TournamentCycleStartedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """A category's newly live cycle and its map."""

    cycle_id: int
    category_id: int
    map_id: int
    map_code: str
    map_name: str
    started_at: datetime
    ends_at: datetime


class TournamentRolloverEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.tournament.rollover`: an edition started, ended, or had a cycle rerolled."""

    edition_id: int
    results: list[TournamentCycleCompletedEvent] = []
    started: list[TournamentCycleStartedEvent] = []
    results_pending: bool = False


class TournamentEditionResultsEvent(msgspec.Struct, frozen=True, kw_only=True):
    """`api.tournament.results`: deferred results of an edition that drained late."""

    edition_id: int
    results: list[TournamentCycleCompletedEvent] = []
