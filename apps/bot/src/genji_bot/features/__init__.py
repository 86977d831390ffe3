"""The bot's feature modules; importing one registers its queue consumers, and importing a
`*_buttons` module declares its dynamic items (the client registers them in its setup hook,
right after `load_features`, before the queue worker starts)."""

from __future__ import annotations

import importlib

FEATURES = (
    "completions",
    "completions_buttons",
    "moderator",
    "moderator_buttons",
    "newsfeed",
    "notifications",
    "playtest",
    "playtest_buttons",
    "tournament_buttons",
    "tournaments",
    "xp",
)


def load_features() -> None:
    for name in FEATURES:
        importlib.import_module(f"genji_bot.features.{name}")
