"""Every controller the API serves under /api/v3, one per feature."""

from __future__ import annotations

from litestar.types import ControllerRouterHandler

from genji_api.completions.routes import CompletionsController
from genji_api.effects.routes import EffectSendsController
from genji_api.guides.routes import GuidesController
from genji_api.jobs.routes import InternalJobsController
from genji_api.lootbox.routes import LootboxController
from genji_api.map_edits.routes import MapEditsController
from genji_api.map_links.routes import MapLinksController
from genji_api.maps.routes import MapsController
from genji_api.maps.thread_routes import MapPlaytestViewController
from genji_api.mastery.routes import MasteryController
from genji_api.newsfeed.routes import NewsfeedController
from genji_api.notifications.routes import NotificationsController
from genji_api.playtests.routes import PlaytestsController
from genji_api.recovery.routes import RecoveryController
from genji_api.tournaments.admin_routes import TournamentAdminController
from genji_api.tournaments.category_routes import TournamentCategoriesController
from genji_api.tournaments.completion_routes import TournamentCompletionsController
from genji_api.users.routes import UsersController
from genji_api.views.routes import InternalViewsController
from genji_api.xp.routes import XpController

ROUTES: list[ControllerRouterHandler] = [
    InternalJobsController,
    RecoveryController,
    InternalViewsController,
    EffectSendsController,
    CompletionsController,
    GuidesController,
    MapEditsController,
    MapLinksController,
    MapsController,
    MasteryController,
    NewsfeedController,
    NotificationsController,
    PlaytestsController,
    TournamentAdminController,
    TournamentCategoriesController,
    TournamentCompletionsController,
    UsersController,
    XpController,
    LootboxController,
    MapPlaytestViewController,
]
