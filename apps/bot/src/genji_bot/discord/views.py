"""The registry's views in discord.py's view store: one persistent view per message id.

`attach` builds the message's buttons from the kind's layout (genji_bot.views.layouts) and adds
a `timeout=None` view bound to that message id; `detach` stops it. Presses on those buttons are
answered by the dynamic item whose template matches the custom id (genji_bot.discord.components);
no kind has a layout today (genji_bot.views.layouts says why), so attaching adds no view.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord
from genji_sdk.views import OpenView, ViewKind

from genji_bot.discord import render
from genji_bot.views.layouts import LAYOUTS, Layout

log = logging.getLogger("genji.bot.views")


class DiscordViewSink:
    def __init__(
        self, client: discord.Client, layouts: Mapping[ViewKind, Layout] = LAYOUTS
    ) -> None:
        self.client = client
        self.layouts = layouts
        self._views: dict[int, discord.ui.View] = {}

    def attach(self, view: OpenView) -> None:
        layout = self.layouts.get(view.kind)
        if layout is None:
            log.debug(
                "no layout for %s views; message %d relies on dynamic items",
                view.kind,
                view.message_id,
            )
            return
        rendered = render.view(layout(view))
        if rendered is None:
            return
        self.client.add_view(rendered, message_id=view.message_id)
        self._views[view.message_id] = rendered

    def detach(self, view: OpenView) -> None:
        rendered = self._views.pop(view.message_id, None)
        if rendered is not None:
            rendered.stop()
