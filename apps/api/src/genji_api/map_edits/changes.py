"""What an accepted edit writes to the map, and which of its changes the newsfeed announces."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from genji_sdk.payloads.common import DifficultyAll

from genji_api.map_edits.repository import EditableMap

# Flags are moderation state, not content: changing them is never announced.
NOT_ANNOUNCED = frozenset({"hidden", "official", "archived", "playtesting"})

_LABELS: tuple[DifficultyAll, ...] = (
    "Easy -", "Easy", "Easy +",
    "Medium -", "Medium", "Medium +",
    "Hard -", "Hard", "Hard +",
    "Very Hard -", "Very Hard", "Very Hard +",
    "Extreme -", "Extreme", "Extreme +",
    "Hell",
)  # fmt: skip
_BAND = Decimal("0.625")


def raw_difficulty(label: DifficultyAll) -> Decimal:
    """The middle of the label's band (core.difficulty_label maps it back to `label`)."""
    band = _LABELS.index(label)
    upper = Decimal(10) if band == len(_LABELS) - 1 else _BAND * (band + 1)
    return ((_BAND * band + upper) / 2).quantize(Decimal("0.01"))


@dataclass(frozen=True)
class AppliedEdit:
    columns: dict[str, Any] = field(default_factory=dict)
    """Column -> new value, only for values that differ from the map's."""
    announced: dict[str, list[Any]] = field(default_factory=dict)
    """Field -> [old, new] for the changed fields the newsfeed shows."""
    archived: bool | None = None
    """The new archive state when it changes; archiving has its own path (and newsfeed)."""


def plan(current: EditableMap, proposed: dict[str, Any]) -> AppliedEdit:
    columns: dict[str, Any] = {}
    announced: dict[str, list[Any]] = {}
    archived: bool | None = None
    for name, new in proposed.items():
        # Proposal fields are named after the map's columns (ProposedChanges).
        old = getattr(current, name)
        if name == "archived":
            archived = None if old == new else new
            continue
        if name == "difficulty":
            if old == new:
                continue
            columns["raw_difficulty"] = raw_difficulty(new)
        elif old == new:
            continue
        else:
            columns[name] = new
        if name not in NOT_ANNOUNCED:
            announced[name] = [old, new]
    return AppliedEdit(columns=columns, announced=announced, archived=archived)
