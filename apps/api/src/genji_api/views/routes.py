"""GET /api/v3/internal/views: the messages whose persistent views the bot restores."""

from __future__ import annotations

from genji_sdk.views import OpenViews
from litestar import Controller, get
from litestar.di import NamedDependency

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.views.service import list_open_views


class InternalViewsController(Controller):
    path = "/internal/views"
    tags = ["views"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @get("/", opt=scopes.required(scopes.COMPLETIONS_READ, scopes.MAPS_READ))
    async def open_views(self, database: NamedDependency[Database]) -> OpenViews:
        """Pending completion verification cards, open playtest threads (their starter message)
        and pending map edit cards that have a posted message."""
        return await list_open_views(database)
