"""Bodies of the tournament category routes."""

from __future__ import annotations

from genji_api.http.types import ResponseBody


class TournamentCategoryResponse(ResponseBody, frozen=True, kw_only=True):
    id: int
    name: str
    champion_role_id: int | None
    is_active: bool
    champion_user_id: int | None
    """The winner of the latest completed cycle; None while the title is vacant."""
    champion_cycle_id: int | None
    former_champion_user_ids: list[int]
    """Winners of other recent cycles, who should no longer hold the champion role."""
