"""Typed rows of the OCR feature's queries (`genji_api.rows`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ShownName:
    """One name a screenshot may show, with the keys that order it."""

    name: str
    rank: int
    secondary: bool
    id: int
