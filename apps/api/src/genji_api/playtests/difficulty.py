"""Difficulty labels and the raw value stored for a label.

The bands match core.difficulty_label in the database: 16 equal bands of 0.625 over 0..10.
"""

from __future__ import annotations

from typing import get_args

from genji_sdk.payloads import DifficultyAll

LABELS: tuple[DifficultyAll, ...] = get_args(DifficultyAll)
BAND = 0.625


def midpoint(label: DifficultyAll) -> float:
    """The centre of the label's band, at the two decimals the database stores."""
    return round(LABELS.index(label) * BAND + BAND / 2, 2)


def label_of(raw: float) -> DifficultyAll:
    return LABELS[min(int(raw // BAND), len(LABELS) - 1)]
