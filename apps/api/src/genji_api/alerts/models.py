"""Bodies of the alert endpoints (the contract lives in genji_sdk.alerts)."""

from __future__ import annotations

from genji_sdk.alerts import (
    AlertCard,
    AlertEffect,
    AlertEpisode,
    AlertWork,
    CardBegin,
    CardBinding,
    CardComplete,
    CardGone,
    CardRendered,
    ReplyBegin,
    ReplyBinding,
    ReplyComplete,
)

__all__ = (
    "AlertCard",
    "AlertEffect",
    "AlertEpisode",
    "AlertWork",
    "CardBegin",
    "CardBinding",
    "CardComplete",
    "CardGone",
    "CardRendered",
    "ReplyBegin",
    "ReplyBinding",
    "ReplyComplete",
)
