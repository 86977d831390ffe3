"""Map services: each owns one transaction."""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse

from genji_api.database import Database
from genji_api.errors import ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.maps import repository
from genji_api.maps.archive import set_archive_status
from genji_api.maps.creation import MapCreated, create_map, enqueue_playtest_create
from genji_api.maps.models import ArchiveRequest, ArchiveResponse, MapCreateRequest
from genji_api.playtests import repository as playtests


async def submit_map(database: Database, request: MapCreateRequest, *, trace: Trace) -> MapCreated:
    return await database.transaction(lambda conn: create_map(conn, request, trace=trace))


async def send_to_playtest(database: Database, code: str, *, trace: Trace) -> JobStatusResponse:
    """Put an existing map back into playtesting; its runs so far become legacy."""

    async def work(conn: asyncpg.Connection) -> JobStatusResponse:
        found = await repository.lock_map_by_code(conn, code)
        if found is None:
            raise NotFoundError(f"No map found with code: {code}")
        if found["playtesting"] == "In Progress":
            raise ConflictError(f"Map {code} is already in playtest.")
        map_id: int = found["id"]
        await repository.convert_completions_to_legacy(conn, map_id)
        await repository.set_playtesting(conn, map_id, "In Progress", hidden=False)
        raw = found["raw_difficulty"]
        playtest_id = await playtests.insert_meta(conn, map_id, None if raw is None else float(raw))
        if playtest_id is None:
            raise ConflictError(f"Map {code} is already in playtest.")
        return await enqueue_playtest_create(
            conn,
            code=code,
            playtest_id=playtest_id,
            event_key=f"map:send-to-playtest:{map_id}:{playtest_id}",
            trace=trace,
        )

    return await database.transaction(work)


async def archive(
    database: Database, request: ArchiveRequest, *, bot_user_id: int, trace: Trace
) -> ArchiveResponse:
    return await database.transaction(
        lambda conn: set_archive_status(conn, request, bot_user_id=bot_user_id, trace=trace)
    )
