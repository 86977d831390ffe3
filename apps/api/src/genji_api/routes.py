"""Every controller the API serves under /api/v3, one per feature."""

from __future__ import annotations

from litestar.types import ControllerRouterHandler

from genji_api.jobs.routes import InternalJobsController
from genji_api.map_edits.routes import MapEditsController
from genji_api.map_links.routes import MapLinksController

ROUTES: list[ControllerRouterHandler] = [
    InternalJobsController,
    MapEditsController,
    MapLinksController,
]
