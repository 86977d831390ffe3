"""Dynamic items: buttons whose custom id alone says what they act on, usable on any message.

A feature declares its `discord.ui.DynamicItem` subclasses with `@dynamic_item` (custom ids are
compact and versioned, `completion:verify:v1:{id}`); the client registers every declared class
in its setup hook, before the queue worker starts and independently of the queue's backlog, so
buttons on messages posted before a restart work again. A callback defers promptly and reads
current state through the API: the custom id is parsed, never trusted as state.
"""

from __future__ import annotations

from typing import Any, TypeVar

import discord

Item = TypeVar("Item", bound=type[discord.ui.DynamicItem[Any]])

DYNAMIC_ITEMS: list[type[discord.ui.DynamicItem[Any]]] = []


def dynamic_item(item: Item) -> Item:
    if item in DYNAMIC_ITEMS:
        raise ValueError(f"{item.__name__} is declared twice")
    DYNAMIC_ITEMS.append(item)
    return item
