"""Every controller the API serves under /api/v3, one per feature."""

from __future__ import annotations

from litestar.types import ControllerRouterHandler

from genji_api.jobs.routes import InternalJobsController
from genji_api.maps.routes import MapsController

ROUTES: list[ControllerRouterHandler] = [
    InternalJobsController,
    MapsController,
]
