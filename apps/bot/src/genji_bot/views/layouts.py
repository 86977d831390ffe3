"""The buttons of each kind of persistent view, declared by the feature that posts the message.

`@view_layout("completion.verification")` on `def buttons(view: OpenView) -> tuple[Button,
...]` returns the same buttons (custom ids) the feature's card carries for that entity, so a
restored view matches the posted message.

No kind declares a layout, on purpose: every button the bot posts is answered by a dynamic item
(`genji_bot.features.*_buttons`, registered at start-up), which parses the custom id of a press on
any message, old or new. discord.py dispatches a press to the matching dynamic item *and* to a
view stored for the message, so a layout here would only add a second, empty dispatch of every
press. The registry and restoration still keep one record per open message (and never bring
back a resolved one); with no layout, attaching a view is a no-op and buttons rely on the
dynamic items alone.
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
