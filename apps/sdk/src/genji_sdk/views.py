"""The Discord messages whose buttons stay usable across bot restarts, as the API lists them.

The API owns the records (a pending completion's verification card, an open playtest's thread
starter message, a pending map edit's review card); the bot registers one persistent view per
listed message when it starts, and creation handlers register the ones they post afterwards.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

ViewKind = Literal["completion.verification", "playtest.thread", "map_edit.verification"]
VIEW_KINDS: Final[tuple[ViewKind, ...]] = (
    "completion.verification",
    "playtest.thread",
    "map_edit.verification",
)


class OpenView(msgspec.Struct, frozen=True, kw_only=True):
    """One message with live buttons: `entity_id` is the completion, playtest or edit request."""

    kind: ViewKind
    entity_id: int
    message_id: int


class OpenViews(msgspec.Struct, frozen=True, kw_only=True):
    views: list[OpenView]
