"""The open views as the bot restores them."""

from __future__ import annotations

from genji_sdk.views import OpenViews

from genji_api.database import Database
from genji_api.views import repository


async def list_open_views(database: Database) -> OpenViews:
    return OpenViews(views=await database.read(repository.open_views))
