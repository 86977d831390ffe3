"""A map's playtest state as the API serves it and the newsfeed handler reads it."""

from __future__ import annotations

import msgspec


class MapPlaytestView(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    map_name: str
    playtesting: str
    difficulty: str | None
    creators: list[str]
    """Display names, the primary creator first."""
    playtest_id: int | None
    """The map's open playtest, else its latest one, if any."""
    thread_id: int | None
    """Its forum thread (also the id of the thread's starter message), once created."""
