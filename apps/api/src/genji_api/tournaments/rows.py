"""Typed rows of the tournament tables, as the tournament modules' queries select them.

Field names are the selected column names (`genji_api.rows`), so a query and its row type
change together.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time
from decimal import Decimal


@dataclass(frozen=True)
class CategoryId:
    id: int


@dataclass(frozen=True)
class PlayedMap:
    map_id: int


@dataclass(frozen=True)
class Participant:
    user_id: int


@dataclass(frozen=True)
class Category:
    id: int
    name: str
    champion_role_id: int | None
    is_active: bool


@dataclass(frozen=True)
class StartedCycle:
    id: int
    category_id: int
    map_id: int
    code: str
    map_name: str
    started_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class LiveCycle:
    id: int
    edition_id: int
    map_id: int


@dataclass(frozen=True)
class PlayedCycle:
    id: int
    category_id: int


@dataclass(frozen=True)
class CompletedCycle:
    id: int


@dataclass(frozen=True)
class EndingEdition:
    id: int
    ends_at: datetime


@dataclass(frozen=True)
class AwaitingEdition:
    id: int
    start_announced: bool


@dataclass(frozen=True)
class EditionState:
    status: str
    start_announced: bool


@dataclass(frozen=True)
class Cadence:
    cadence: str
    transitions_paused: bool


@dataclass(frozen=True)
class Anchor:
    anchor_weekday: int
    anchor_time: time
    anchor_tz: str
    now: datetime


@dataclass(frozen=True)
class Standing:
    rank: int
    user_id: int
    name: str
    time: Decimal
    verified: bool
    completion: bool


@dataclass(frozen=True)
class Transition:
    """An unpublished outbox row; `payload` is jsonb as the connection decoded it."""

    id: int
    edition_id: int
    event_type: str
    payload: object


@dataclass(frozen=True)
class StreakAdvance:
    user_id: int
    current_streak: int


@dataclass(frozen=True)
class StreakRules:
    id: int
    streak_xp: object
    """jsonb, as the connection decoded it."""


@dataclass(frozen=True)
class JudgedCompletion:
    id: int
    cycle_id: int
    user_id: int
    time: Decimal
    status: str


@dataclass(frozen=True)
class LatestVerdict:
    id: int
    verified: bool
