"""Archive or unarchive maps: one transaction, closing the playtests of archived maps."""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.newsfeed import (
    NewsfeedArchive,
    NewsfeedBulkArchive,
    NewsfeedBulkUnarchive,
    NewsfeedPayload,
    NewsfeedUnarchive,
)

from genji_api.errors import NotFoundError
from genji_api.http.tracing import Trace
from genji_api.maps import repository
from genji_api.maps.models import ArchiveRequest, ArchiveResponse
from genji_api.maps.repository import ArchivableMap
from genji_api.newsfeed.entries import create_newsfeed
from genji_api.playtests import repository as playtests
from genji_api.playtests.service import deny

ARCHIVED_REASON = "archived"


def _entry(request: ArchiveRequest, maps: list[ArchivableMap]) -> NewsfeedPayload:
    if len(maps) == 1:
        single = NewsfeedArchive if request.archived else NewsfeedUnarchive
        return single(code=maps[0].code, map_name=maps[0].map_name, reason=request.reason)
    bulk = NewsfeedBulkArchive if request.archived else NewsfeedBulkUnarchive
    return bulk(codes=[row.code for row in maps], reason=request.reason)


async def set_archive_status(
    conn: asyncpg.Connection, request: ArchiveRequest, *, bot_user_id: int, trace: Trace | None
) -> ArchiveResponse:
    codes = list(dict.fromkeys(request.codes))
    maps = await repository.lock_maps_by_codes(conn, codes)
    missing = sorted(set(codes) - {row.code for row in maps})
    if missing:
        raise NotFoundError(f"No map found with code: {missing[0]}", extra={"codes": missing})
    await repository.set_archived(conn, [row.id for row in maps], request.archived)

    denied: list[JobStatusResponse] = []
    if request.archived:
        in_progress = [row.id for row in maps if row.playtesting == "In Progress"]
        for meta in await playtests.open_playtests_of_maps(conn, in_progress):
            if meta.thread_id is None:
                # No thread to close yet: the playtest closes here, nothing is announced.
                await repository.set_playtesting(conn, meta.map_id, "Rejected", hidden=True)
                await playtests.complete(conn, meta.id)
                continue
            denied.append(
                await deny(
                    conn,
                    meta,
                    meta.thread_id,
                    verifier_id=bot_user_id,
                    reason=ARCHIVED_REASON,
                    trace=trace,
                )
            )
        # A map in playtesting without an open playtest row is rejected all the same.
        for map_id in in_progress:
            await repository.set_playtesting(conn, map_id, "Rejected", hidden=True)

    ordered = sorted(maps, key=lambda row: codes.index(row.code))
    feed = await create_newsfeed(conn, _entry(request, ordered), trace=trace)
    return ArchiveResponse(
        codes=[row.code for row in ordered], newsfeed_job=feed.job, force_deny_jobs=denied
    )
