"""Request bodies of the tournament completion verdict routes."""

from __future__ import annotations

from genji_api.http.types import RequestBody


class TournamentVerdictRequest(RequestBody, frozen=True, kw_only=True):
    verified_by: int
