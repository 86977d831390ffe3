"""Rank arithmetic on an XP total (lootbox.main_tiers / sub_tiers hold the names).

Every 100 XP is one rank; 100 ranks make a prestige. Within a prestige, five ranks share a main
tier and the rank's position among them is its sub tier (I to V).
"""

from __future__ import annotations

from dataclasses import dataclass

XP_PER_RANK = 100
RANKS_PER_PRESTIGE = 100
RANKS_PER_MAIN_TIER = 5


@dataclass(frozen=True)
class TierPosition:
    rank: int
    """Ranks earned in all: xp / 100."""
    prestige: int
    main_tier: int
    """0-19 within the prestige."""
    sub_tier: int
    """0-4 within the main tier."""


def position(xp: int) -> TierPosition:
    rank = max(xp, 0) // XP_PER_RANK
    within = rank % RANKS_PER_PRESTIGE
    return TierPosition(
        rank=rank,
        prestige=rank // RANKS_PER_PRESTIGE,
        main_tier=within // RANKS_PER_MAIN_TIER,
        sub_tier=rank % RANKS_PER_MAIN_TIER,
    )
