"""Every controller the API serves under /api/v3, one per feature."""

from __future__ import annotations

from litestar.types import ControllerRouterHandler

from genji_api.completions.routes import CompletionsController
from genji_api.jobs.routes import InternalJobsController
from genji_api.tournaments.completion_routes import TournamentCompletionsController

ROUTES: list[ControllerRouterHandler] = [
    InternalJobsController,
    CompletionsController,
    TournamentCompletionsController,
]
