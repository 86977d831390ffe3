"""The bot's feature modules; importing one registers its queue consumers."""

from __future__ import annotations

import importlib

FEATURES = (
    "completions",
    "moderator",
    "newsfeed",
    "notifications",
    "playtest",
    "tournaments",
    "xp",
)


def load_features() -> None:
    for name in FEATURES:
        importlib.import_module(f"genji_bot.features.{name}")
