"""User response bodies."""

from __future__ import annotations

from genji_api.http.types import ResponseBody


class SkillRankResponse(ResponseBody, frozen=True, kw_only=True):
    user_id: int
    rank: str
