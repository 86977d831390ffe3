"""Map services: each owns one transaction."""

from __future__ import annotations

from genji_sdk.jobs import JobStatusResponse

from genji_api.database import Database
from genji_api.http.tracing import Trace
from genji_api.maps.archive import set_archive_status
from genji_api.maps.creation import MapCreated, create_map
from genji_api.maps.models import ArchiveRequest, ArchiveResponse, MapCreateRequest
from genji_api.maps.playtest_entry import put_in_playtest


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
