"""GET /api/v3/tournaments/categories/{id}: a category and who holds its champion role now."""

from __future__ import annotations

from litestar import Controller, get
from litestar.di import NamedDependency

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.tournaments.admin_routes import CategoryId
from genji_api.tournaments.category_models import TournamentCategoryResponse
from genji_api.tournaments.category_service import get_category


class TournamentCategoriesController(Controller):
    path = "/tournaments/categories"
    tags = ["tournaments"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @get("/{category_id:int}", opt=scopes.required(scopes.TOURNAMENTS_READ))
    async def get_category(
        self, category_id: CategoryId, database: NamedDependency[Database]
    ) -> TournamentCategoryResponse:
        """The category, its champion role, and its current and recent champions."""
        return await get_category(database, category_id)
