"""Put an existing map back into playtesting, inside the caller's transaction."""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse

from genji_api.errors import ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.maps import repository
from genji_api.maps.creation import enqueue_playtest_create
from genji_api.playtests import repository as playtests


async def put_in_playtest(
    conn: asyncpg.Connection, code: str, *, trace: Trace
) -> JobStatusResponse:
    """Its runs so far become legacy, a new playtest starts, and its thread is requested."""
    found = await repository.lock_map_by_code(conn, code)
    if found is None:
        raise NotFoundError(f"No map found with code: {code}")
    if found.playtesting == "In Progress":
        raise ConflictError(f"Map {code} is already in playtest.")
    map_id = found.id
    await repository.convert_completions_to_legacy(conn, map_id)
    await repository.set_playtesting(conn, map_id, "In Progress", hidden=False)
    raw = found.raw_difficulty
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
