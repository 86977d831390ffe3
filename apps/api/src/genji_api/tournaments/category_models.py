"""Bodies of the tournament category routes."""

from __future__ import annotations

from genji_sdk.tournaments import TournamentCategoryResponse

__all__ = ("TournamentCategoryResponse",)
