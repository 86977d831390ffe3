"""PATCH /api/v3/tournaments/completions/{id}/verify and /reject."""

from __future__ import annotations

from typing import Any

from genji_sdk.jobs import JobStatusResponse
from litestar import Controller, Request, patch
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.http.tracing import request_trace
from genji_api.tournaments.completion_models import TournamentVerdictRequest
from genji_api.tournaments.completion_service import set_tournament_verdict


class TournamentCompletionsController(Controller):
    path = "/tournaments/completions"
    tags = ["tournaments"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @patch("/{completion_id:int}/verify", opt=scopes.required(scopes.TOURNAMENTS_VERIFY))
    async def verify(
        self,
        request: Request[Any, Any, Any],
        completion_id: FromPath[int],
        data: JSONBody[TournamentVerdictRequest],
        database: NamedDependency[Database],
    ) -> JobStatusResponse:
        """Verify a tournament run (terminal); a first one in the cycle grants participation XP."""
        return await set_tournament_verdict(
            database,
            completion_id,
            verified=True,
            verified_by=data.verified_by,
            trace=request_trace(request),
        )

    @patch("/{completion_id:int}/reject", opt=scopes.required(scopes.TOURNAMENTS_VERIFY))
    async def reject(
        self,
        request: Request[Any, Any, Any],
        completion_id: FromPath[int],
        data: JSONBody[TournamentVerdictRequest],
        database: NamedDependency[Database],
    ) -> JobStatusResponse:
        """Reject a tournament run that is not verified."""
        return await set_tournament_verdict(
            database,
            completion_id,
            verified=False,
            verified_by=data.verified_by,
            trace=request_trace(request),
        )
