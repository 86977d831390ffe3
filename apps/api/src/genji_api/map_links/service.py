"""Linking and unlinking an official map and its unofficial counterpart, one transaction each."""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.newsfeed import NewsfeedLinkedMap, NewsfeedUnlinkedMap
from genji_sdk.payloads import LinkedMapNewsfeedRequestedEvent

from genji_api.database import Database
from genji_api.errors import BadRequestError, ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.map_links import repository as links
from genji_api.map_links.clone import clone_map
from genji_api.map_links.models import (
    LinkCodesRequest,
    LinkCreated,
    LinkRemoved,
    UnlinkCodesRequest,
)
from genji_api.map_links.repository import LinkableMap
from genji_api.newsfeed.entries import create_newsfeed
from genji_api.queue.enqueue import enqueue_job

ALREADY_LINKED = "One of these maps is already linked to another map."


def continuation_key(operation_id: int) -> str:
    return f"map:linked:{operation_id}"


def _check_roles(official: LinkableMap | None, unofficial: LinkableMap | None) -> None:
    if official is not None and not official.official:
        raise BadRequestError("The official code names an unofficial map.")
    if unofficial is not None and unofficial.official:
        raise BadRequestError("The unofficial code names an official map.")
    if any(m is not None and m.linked_code is not None for m in (official, unofficial)):
        raise ConflictError(ALREADY_LINKED)


async def _link(conn: asyncpg.Connection, request: LinkCodesRequest) -> None:
    try:
        async with conn.transaction():
            await links.link(conn, request.official_code, request.unofficial_code)
    except asyncpg.CheckViolationError as error:
        if error.constraint_name != links.SYMMETRY:
            raise
        raise ConflictError(ALREADY_LINKED) from None


async def link_map_codes(
    database: Database, request: LinkCodesRequest, *, trace: Trace
) -> LinkCreated:
    if request.official_code == request.unofficial_code:
        raise BadRequestError("A map cannot be linked to itself.")

    async def work(conn: asyncpg.Connection) -> LinkCreated:
        found = await links.lock_maps(conn, [request.official_code, request.unofficial_code])
        official = found.get(request.official_code)
        unofficial = found.get(request.unofficial_code)
        if official is None and unofficial is None:
            raise NotFoundError(
                "Neither the official nor the unofficial map exists.",
                extra={
                    "official_code": request.official_code,
                    "unofficial_code": request.unofficial_code,
                },
            )
        _check_roles(official, unofficial)
        playtest_job: JobStatusResponse | None = None
        if unofficial is None:
            assert official is not None
            clone = await clone_map(
                conn,
                official,
                code=request.unofficial_code,
                official=False,
                hidden=False,
                playtesting="Approved",
                trace=trace,
            )
            official_id, unofficial_id = official.id, clone.map_id
        elif official is None:
            clone = await clone_map(
                conn,
                unofficial,
                code=request.official_code,
                official=True,
                hidden=True,
                playtesting="In Progress",
                trace=trace,
            )
            official_id, unofficial_id = clone.map_id, unofficial.id
            playtest_job = clone.job
        else:
            official_id, unofficial_id = official.id, unofficial.id
        await _link(conn, request)
        operation_id = await links.insert_operation(conn, official_id, unofficial_id)
        if playtest_job is not None:
            # Announced once the bot has made the playtest thread the newsfeed points at.
            job = await enqueue_job(
                conn,
                payload=LinkedMapNewsfeedRequestedEvent(
                    official_code=request.official_code,
                    unofficial_code=request.unofficial_code,
                    official_map_id=official_id,
                ),
                event_key=continuation_key(operation_id),
                entity_key=f"map:{official_id}",
                depends_on=playtest_job.id,
                trace=trace,
            )
            return LinkCreated(link_id=operation_id, job_status=job)
        created = await create_newsfeed(
            conn,
            NewsfeedLinkedMap(
                official_code=request.official_code, unofficial_code=request.unofficial_code
            ),
            trace=trace,
        )
        await links.record_newsfeed(conn, operation_id, created.newsfeed_id)
        return LinkCreated(link_id=operation_id, job_status=created.job)

    return await database.transaction(work)


async def unlink_map_codes(
    database: Database, request: UnlinkCodesRequest, *, trace: Trace
) -> LinkRemoved:
    async def work(conn: asyncpg.Connection) -> LinkRemoved:
        found = await links.lock_maps(conn, [request.official_code, request.unofficial_code])
        official = found.get(request.official_code)
        unofficial = found.get(request.unofficial_code)
        if official is None or unofficial is None:
            raise NotFoundError(
                "Map not found.",
                extra={"code": request.unofficial_code if official else request.official_code},
            )
        if official.linked_code != request.unofficial_code:
            raise ConflictError("These maps are not linked to each other.")
        await links.unlink(conn, request.official_code)
        created = await create_newsfeed(
            conn,
            NewsfeedUnlinkedMap(
                official_code=request.official_code,
                unofficial_code=request.unofficial_code,
                reason=request.reason,
            ),
            trace=trace,
        )
        return LinkRemoved(job_status=created.job)

    return await database.transaction(work)
