"""The buttons of each kind of persistent view, declared by the feature that posts the message.

`@view_layout("completion.verification")` on `def buttons(view: OpenView) -> tuple[Button,
...]` returns the same buttons (custom ids) the feature's card carries for that entity, so a
restored view matches the posted message. A kind without a layout is still deduplicated by the
registry; Discord then dispatches its buttons only through the registered dynamic items.
"""

from __future__ import annotations

from collections.abc import Callable

from genji_sdk.views import OpenView, ViewKind

from genji_bot.effects.port import Button

Layout = Callable[[OpenView], tuple[Button, ...]]
LAYOUTS: dict[ViewKind, Layout] = {}


def view_layout(kind: ViewKind) -> Callable[[Layout], Layout]:
    def register(layout: Layout) -> Layout:
        if kind in LAYOUTS:
            raise ValueError(f"view kind {kind!r} has two layouts")
        LAYOUTS[kind] = layout
        return layout

    return register
