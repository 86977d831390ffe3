"""The tournament category answer the bot reads, as the API serves it."""

from __future__ import annotations

import msgspec


class TournamentCategoryResponse(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    champion_role_id: int | None
    is_active: bool
    champion_user_id: int | None
    """The winner of the latest completed cycle; None while the title is vacant."""
    champion_cycle_id: int | None
    former_champion_user_ids: list[int]
    """Winners of other recent cycles, who should no longer hold the champion role."""
