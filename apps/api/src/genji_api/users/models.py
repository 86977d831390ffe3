"""User response bodies."""

from __future__ import annotations

from genji_api.http.types import ResponseBody


class SkillRankResponse(ResponseBody, frozen=True, kw_only=True):
    user_id: int
    rank: str
    ranked: bool
    """False for the rank of a user with no qualifying run yet (nothing to announce)."""
