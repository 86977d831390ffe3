"""GET /api/v3/maps/{code}/playtest-view."""

from __future__ import annotations

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import FromPath

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.maps.playtest_view import MapPlaytestView, playtest_view
from genji_api.maps.routes import _code


class MapPlaytestViewController(Controller):
    path = "/maps/{code:str}/playtest-view"
    tags = ["maps"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @get("/", opt=scopes.required(scopes.MAPS_READ))
    async def playtest_view(
        self, code: FromPath[str], database: NamedDependency[Database]
    ) -> MapPlaytestView:
        """Whether the map is in playtest, its thread, and what the thread's card shows."""
        return await playtest_view(database, _code(code))
