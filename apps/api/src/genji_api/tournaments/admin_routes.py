"""Tournament administration: bootstrap the first edition, reroll a live map, force results."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.http.tracing import request_trace
from genji_api.tournaments.admin_models import (
    BootstrapResponse,
    PublishResultsRequest,
    PublishResultsResponse,
    RerollResponse,
)
from genji_api.tournaments.edition import bootstrap_edition
from genji_api.tournaments.reroll import publish_results, reroll_active_cycle

CategoryId = Annotated[int, Parameter(description="The tournament category's id")]


class TournamentAdminController(Controller):
    path = "/tournaments"
    tags = ["tournaments"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post(
        "/categories/{category_id:int}/reroll-active",
        opt=scopes.required(scopes.TOURNAMENTS_WRITE),
    )
    async def reroll_active(
        self,
        category_id: CategoryId,
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> RerollResponse:
        """Replace the category's live map in the active edition and announce the new one."""
        return await reroll_active_cycle(database, category_id, request_trace(request))

    @post("/publish-results")
    async def force_publish_results(
        self, data: JSONBody[PublishResultsRequest], database: NamedDependency[Database]
    ) -> PublishResultsResponse:
        """Superuser only: publish an ended edition's results now."""
        return await publish_results(database, data.edition_id)

    @post("/editions/bootstrap", opt=scopes.required(scopes.TOURNAMENTS_WRITE))
    async def bootstrap(self, database: NamedDependency[Database]) -> BootstrapResponse:
        """Create the first edition; the outbox drain announces its start."""
        edition = await bootstrap_edition(database)
        return BootstrapResponse(
            edition_id=edition.edition_id,
            transition_id=edition.transition_id,
            cycle_ids=edition.cycle_ids,
            started_at=edition.started_at,
            ends_at=edition.ends_at,
        )
