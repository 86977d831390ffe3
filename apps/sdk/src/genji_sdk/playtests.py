"""A playtest's current state as the API serves it and the bot reads it."""

from __future__ import annotations

from typing import Any

import msgspec


class PlaytestCreator(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    is_primary: bool


class PlaytestVote(msgspec.Struct, frozen=True, kw_only=True):
    user_id: int
    name: str
    difficulty: float


class PlaytestTransition(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    kind: str
    actor_id: int | None
    details: dict[str, Any]


class PlaytestStateResponse(msgspec.Struct, frozen=True, kw_only=True):
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

    @property
    def primary(self) -> PlaytestCreator:
        return self.creators[0]

    @property
    def label(self) -> str:
        return self.difficulty or "Unranked"
