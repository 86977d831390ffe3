"""Mastery levels by the number of official maps of one map name a user has verified runs on."""

from __future__ import annotations

# (maps needed, level), lowest first.
MASTERY_LEVELS: tuple[tuple[int, str], ...] = (
    (1, "Bronze"),
    (5, "Silver"),
    (10, "Gold"),
    (15, "Platinum"),
    (20, "Diamond"),
    (25, "Grandmaster"),
)


def mastery_level(maps: int) -> str | None:
    level = None
    for needed, name in MASTERY_LEVELS:
        if maps >= needed:
            level = name
    return level


def is_higher(level: str | None, than: str | None) -> bool:
    order = [name for _, name in MASTERY_LEVELS]
    if level is None:
        return False
    return than is None or order.index(level) > order.index(than)
