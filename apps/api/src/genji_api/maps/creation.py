"""Create a map inside the caller's transaction: the building block of map submission."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.newsfeed import NewsfeedNewMap
from genji_sdk.payloads import PlaytestCreatedEvent

from genji_api.errors import BadRequestError, ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.maps import repository
from genji_api.maps.models import MapCreateRequest
from genji_api.newsfeed.entries import create_newsfeed
from genji_api.playtests import repository as playtests
from genji_api.playtests.difficulty import midpoint
from genji_api.queue.enqueue import enqueue_job
from genji_api.xp.grants import XP_AMOUNTS, grant_xp


@dataclass(frozen=True)
class MapCreated:
    map_id: int
    code: str
    playtest_id: int | None
    job: JobStatusResponse | None
    """The api.playtest.create job when the map entered playtesting."""


def _raw_difficulty(request: MapCreateRequest) -> float | None:
    if request.difficulty is not None and request.raw_difficulty is not None:
        raise BadRequestError("Give either difficulty or raw_difficulty, not both.")
    if request.difficulty is not None:
        return midpoint(request.difficulty)
    return request.raw_difficulty


def _primary(request: MapCreateRequest) -> int:
    ids = [creator.id for creator in request.creators]
    if len(set(ids)) != len(ids):
        raise BadRequestError("A creator is listed more than once.")
    primaries = [creator.id for creator in request.creators if creator.is_primary]
    if len(primaries) != 1:
        raise BadRequestError("A map needs exactly one primary creator.")
    return primaries[0]


async def enqueue_playtest_create(
    conn: asyncpg.Connection, *, code: str, playtest_id: int, event_key: str, trace: Trace | None
) -> JobStatusResponse:
    return await enqueue_job(
        conn,
        payload=PlaytestCreatedEvent(code=code, playtest_id=playtest_id),
        event_key=event_key,
        entity_key=f"playtest:{playtest_id}",
        trace=trace,
    )


async def create_map(
    conn: asyncpg.Connection, request: MapCreateRequest, *, trace: Trace | None
) -> MapCreated:
    """Insert the map, its creators and optional guide, with every job they cause, on `conn`.

    Never commits: the caller's transaction holds the map, the guide and its XP, the playtest
    row and the api.playtest.create job together. A code already taken (also by a concurrent
    transaction that commits first) is a ConflictError; an unknown creator a NotFoundError.
    """
    primary = _primary(request)
    raw = _raw_difficulty(request)
    missing = await repository.missing_users(conn, [c.id for c in request.creators])
    if missing:
        raise NotFoundError(f"No user found with id: {missing[0]}", extra={"user_ids": missing})
    map_id = await repository.insert_map(
        conn,
        code=request.code,
        map_name=request.map_name,
        category=request.category,
        checkpoints=request.checkpoints,
        official=request.official,
        playtesting=request.playtesting,
        hidden=request.hidden,
        raw_difficulty=raw,
    )
    if map_id is None:
        raise ConflictError(f"A map with code {request.code} already exists.")
    await repository.insert_creators(
        conn, map_id, [(c.id, c.id == primary) for c in request.creators]
    )

    if request.guide_url is not None:
        guide_id = await repository.insert_guide(conn, map_id, primary, request.guide_url)
        if request.official:
            await grant_xp(
                conn,
                user_id=primary,
                base_amount=XP_AMOUNTS["Guide"],
                xp_type="Guide",
                grant_key=f"guide:{guide_id}",
                reason=f"Guide for map {request.code}",
                trace=trace,
            )

    playtest_id: int | None = None
    job: JobStatusResponse | None = None
    if request.playtesting == "In Progress":
        # A brand-new map has no other playtest, so this insert always returns an id.
        playtest_id = await playtests.insert_meta(conn, map_id, raw)
        assert playtest_id is not None
        job = await enqueue_playtest_create(
            conn,
            code=request.code,
            playtest_id=playtest_id,
            event_key=f"map:submit:{map_id}",
            trace=trace,
        )
    elif request.playtesting == "Approved" and not request.hidden:
        difficulty = await conn.fetchval("SELECT difficulty FROM core.maps WHERE id = $1", map_id)
        await create_newsfeed(
            conn,
            NewsfeedNewMap(
                code=request.code,
                map_name=request.map_name,
                difficulty=difficulty,
                creators=await repository.creator_names(conn, map_id),
                official=request.official,
            ),
            trace=trace,
        )
    return MapCreated(map_id=map_id, code=request.code, playtest_id=playtest_id, job=job)
