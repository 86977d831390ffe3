"""Guide submission and removal, each in one transaction with every job it causes."""

from __future__ import annotations

import asyncpg
from genji_sdk.newsfeed import NewsfeedGuide

from genji_api.database import Database
from genji_api.errors import ConflictError, NotFoundError
from genji_api.guides import repository
from genji_api.guides.models import GuideRequest, GuideResponse
from genji_api.guides.repository import Guide, GuideMap
from genji_api.http.tracing import Trace
from genji_api.newsfeed.entries import newsfeed_job, store_newsfeed
from genji_api.queue.enqueue import JobRequest, enqueue_jobs
from genji_api.users.repository import display_name, lock_user
from genji_api.xp.grants import XP_AMOUNTS, apply_xp_grant, xp_grant_job

# A conflicting guide can be deleted between the insert that saw it and the read of it; the
# insert then succeeds on the next round. More rounds than this mean something else is wrong.
_INSERT_ROUNDS = 3


def guide_grant_key(guide_id: int) -> str:
    return f"guide:{guide_id}"


async def _map(conn: asyncpg.Connection, code: str) -> GuideMap:
    found = await repository.map_by_code(conn, code)
    if found is None:
        raise NotFoundError(f"No map found with code: {code}")
    return found


async def _insert_or_existing(
    conn: asyncpg.Connection, game_map: GuideMap, request: GuideRequest
) -> tuple[int | None, Guide | None]:
    """(new guide id, None) for a new guide, (None, existing guide) otherwise."""
    for _ in range(_INSERT_ROUNDS):
        guide_id = await repository.insert_guide(conn, game_map.id, request.user_id, request.url)
        if guide_id is not None:
            return guide_id, None
        existing = await repository.guide_of(conn, game_map.id, request.user_id)
        if existing is not None:
            return None, existing
    raise RuntimeError("guide insert kept conflicting with a guide that then disappeared")


async def submit_guide(
    database: Database, code: str, request: GuideRequest, *, trace: Trace
) -> GuideResponse:
    """A new guide commits with its Guide XP (official maps), its newsfeed entry and their
    jobs. The same URL again is the same guide: the first result, and nothing new."""

    async def work(conn: asyncpg.Connection) -> GuideResponse:
        game_map = await _map(conn, code)
        await lock_user(conn, request.user_id)
        guide_id, existing = await _insert_or_existing(conn, game_map, request)
        if existing is not None:
            if existing.url != request.url:
                raise ConflictError(
                    f"User {request.user_id} already has a guide for map {game_map.code}"
                )
            return GuideResponse(url=existing.url, user_id=existing.user_id)
        assert guide_id is not None
        jobs: list[JobRequest] = []
        if game_map.official:
            grant, _ = await apply_xp_grant(
                conn,
                user_id=request.user_id,
                base_amount=XP_AMOUNTS["Guide"],
                xp_type="Guide",
                grant_key=guide_grant_key(guide_id),
            )
            jobs.append(xp_grant_job(grant))
        entry = NewsfeedGuide(
            code=game_map.code,
            guide_url=request.url,
            name=await display_name(conn, request.user_id),
        )
        jobs.append(newsfeed_job(await store_newsfeed(conn, entry)))
        # The guide's jobs in one call: one round trip to the database for both.
        await enqueue_jobs(conn, jobs, trace=trace)
        return GuideResponse(url=request.url, user_id=request.user_id)

    return await database.transaction(work)


async def delete_guide(database: Database, code: str, user_id: int) -> None:
    async def work(conn: asyncpg.Connection) -> None:
        game_map = await _map(conn, code)
        if not await repository.delete_guide(conn, game_map.id, user_id):
            raise NotFoundError(f"No guide found for map {game_map.code} by user {user_id}")

    await database.transaction(work)


async def list_guides(database: Database, code: str) -> list[GuideResponse]:
    async def work(conn: asyncpg.Connection) -> list[GuideResponse]:
        game_map = await _map(conn, code)
        guides = await repository.guides_of_map(conn, game_map.id)
        return [GuideResponse(url=g.url, user_id=g.user_id) for g in guides]

    return await database.read(work)
