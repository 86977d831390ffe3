"""The handler of each API-owned entrypoint, built from its feature."""

from __future__ import annotations

from genji_worker.executor import Handler

from genji_api.completions.ocr_handler import make_completion_ocr_handler
from genji_api.database import Database
from genji_api.map_links.handler import make_linked_newsfeed_handler
from genji_api.settings import ApiSettings
from genji_api.tournaments.ocr_handler import make_tournament_ocr_handler


def api_handlers(database: Database, settings: ApiSettings) -> dict[str, Handler]:
    return {
        "completion.ocr.requested": make_completion_ocr_handler(database, settings),
        "tournament.ocr.requested": make_tournament_ocr_handler(database, settings),
        "map.linked.newsfeed.requested": make_linked_newsfeed_handler(database, settings),
    }
