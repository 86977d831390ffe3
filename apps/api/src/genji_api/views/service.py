"""The open views as the bot restores them."""

from __future__ import annotations

from genji_sdk.views import OpenView, OpenViews

from genji_api.database import Database
from genji_api.views import repository


async def list_open_views(database: Database) -> OpenViews:
    rows = await database.read(repository.open_views)
    return OpenViews(
        views=[
            OpenView(kind=row["kind"], entity_id=row["entity_id"], message_id=row["message_id"])
            for row in rows
        ]
    )
