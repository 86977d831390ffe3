"""User response bodies."""

from __future__ import annotations

from genji_sdk.users import SkillRankResponse

__all__ = ("SkillRankResponse",)
