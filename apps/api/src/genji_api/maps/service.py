"""Map services: each owns one transaction."""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse

from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.errors import NotFoundError
from genji_api.http.tracing import Trace
from genji_api.maps import repository
from genji_api.maps.archive import set_archive_status
from genji_api.maps.creation import MapCreated, create_map
from genji_api.maps.models import (
    ArchiveRequest,
    ArchiveResponse,
    MapCreateRequest,
    MapVisibilityRequest,
    MapVisibilityResponse,
)
from genji_api.maps.playtest_entry import put_in_playtest

# The effects handlers request here, and the jobs that may request each.
MAP_EFFECTS = rule(map=["api.playtest.create"])


async def submit_map(database: Database, request: MapCreateRequest, *, trace: Trace) -> MapCreated:
    return await database.transaction(lambda conn: create_map(conn, request, trace=trace))


async def send_to_playtest(database: Database, code: str, *, trace: Trace) -> JobStatusResponse:
    """Put an existing map back into playtesting; its runs so far become legacy."""
    return await database.transaction(lambda conn: put_in_playtest(conn, code, trace=trace))


async def archive(
    database: Database, request: ArchiveRequest, *, bot_user_id: int, trace: Trace
) -> ArchiveResponse:
    return await database.transaction(
        lambda conn: set_archive_status(conn, request, bot_user_id=bot_user_id, trace=trace)
    )


async def set_visibility(
    database: Database, code: str, request: MapVisibilityRequest, *, effect: EffectContext | None
) -> MapVisibilityResponse:
    """Show or hide a map; a handler's effect does it once and then returns what it recorded."""

    async def work(conn: asyncpg.Connection) -> MapVisibilityResponse:
        async def perform() -> MapVisibilityResponse:
            found = await repository.lock_map_by_code(conn, code)
            if found is None:
                raise NotFoundError(f"No map found with code: {code}")
            await repository.set_hidden(conn, found.id, request.hidden)
            return MapVisibilityResponse(code=code, hidden=request.hidden)

        return await once(conn, effect, request, MapVisibilityResponse, perform, rule=MAP_EFFECTS)

    return await database.transaction(work)
