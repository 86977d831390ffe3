"""Playtest services: thread binding, votes and verdicts, each in one transaction."""

from __future__ import annotations

from typing import Any

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import (
    PlaytestApprovedEvent,
    PlaytestForceAcceptedEvent,
    PlaytestForceDeniedEvent,
    PlaytestResetEvent,
    PlaytestVoteCastEvent,
    PlaytestVoteRemovedEvent,
)

from genji_api.database import Database
from genji_api.errors import BadRequestError, ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.maps import repository as maps
from genji_api.playtests import reads, repository
from genji_api.playtests.difficulty import label_of, midpoint
from genji_api.playtests.models import (
    ApproveRequest,
    ForceAcceptRequest,
    ForceDenyRequest,
    PlaytestResponse,
    PlaytestStateResponse,
    ResetRequest,
    ThreadBindRequest,
    VoteRequest,
)
from genji_api.playtests.repository import OpenPlaytest, ThreadPlaytest
from genji_api.playtests.threads import bind
from genji_api.playtests.transitions import record

# The number of votes that makes a playtest finalizable.
FINALIZE_VOTES = 5


async def bind_thread(
    database: Database, playtest_id: int, request: ThreadBindRequest
) -> PlaytestResponse:
    """Record the playtest's forum thread; the same thread again changes nothing."""
    return await database.transaction(
        lambda conn: bind(conn, playtest_id, request.thread_id, request.verification_id)
    )


async def current_state(
    database: Database, *, playtest_id: int | None = None, thread_id: int | None = None
) -> PlaytestStateResponse:
    found = await database.read(
        lambda conn: reads.state(conn, playtest_id=playtest_id, thread_id=thread_id)
    )
    if found is None:
        if thread_id is not None:
            raise NotFoundError(f"No playtest found for thread: {thread_id}")
        raise NotFoundError(f"No playtest found with id: {playtest_id}")
    return found


async def _recipients(conn: asyncpg.Connection, map_id: int, thread_id: int) -> dict[str, Any]:
    """Who a verdict rewards, persisted with it so a replay rewards the same users."""
    return {
        "creator_ids": await repository.creator_ids(conn, map_id),
        "voter_ids": await repository.voter_ids(conn, thread_id),
    }


async def _by_thread(conn: asyncpg.Connection, thread_id: int) -> ThreadPlaytest:
    meta = await repository.lock_meta_by_thread(conn, thread_id)
    if meta is None:
        raise NotFoundError(f"No playtest found for thread: {thread_id}")
    return meta


async def _open_by_thread(conn: asyncpg.Connection, thread_id: int) -> ThreadPlaytest:
    meta = await _by_thread(conn, thread_id)
    if meta.completed:
        raise ConflictError(f"The playtest of thread {thread_id} is already completed.")
    return meta


async def cast_vote(
    database: Database, thread_id: int, user_id: int, request: VoteRequest, *, trace: Trace
) -> JobStatusResponse:
    async def work(conn: asyncpg.Connection) -> JobStatusResponse:
        meta = await _by_thread(conn, thread_id)
        try:
            await repository.upsert_vote(conn, user_id, meta.map_id, thread_id, request.difficulty)
        except asyncpg.CheckViolationError as error:
            raise BadRequestError(error.args[0] if error.args else str(error)) from None
        except asyncpg.ForeignKeyViolationError:
            raise NotFoundError(f"No user found with id: {user_id}") from None
        # The vote that first brings the playtest to the finalize count (since its last reset)
        # is marked, so its creators are told once however often the count is reached again.
        votes = await repository.vote_count(conn, thread_id)
        earlier = await repository.finalizable_vote(conn, meta.id)
        finalizable = votes == FINALIZE_VOTES and earlier is None
        return await record(
            conn,
            playtest_id=meta.id,
            kind="vote_cast",
            actor_id=user_id,
            details={"difficulty": request.difficulty, "finalizable": finalizable},
            payload=lambda _: PlaytestVoteCastEvent(
                voter_id=user_id, difficulty_value=request.difficulty, thread_id=thread_id
            ),
            trace=trace,
        )

    return await database.transaction(work)


async def remove_vote(
    database: Database, thread_id: int, user_id: int, *, trace: Trace
) -> JobStatusResponse:
    async def work(conn: asyncpg.Connection) -> JobStatusResponse:
        meta = await _by_thread(conn, thread_id)
        if not await repository.delete_vote(conn, user_id, meta.map_id, thread_id):
            raise BadRequestError(f"User {user_id} has no vote on this playtest.")
        return await record(
            conn,
            playtest_id=meta.id,
            kind="vote_remove",
            actor_id=user_id,
            details={},
            payload=lambda _: PlaytestVoteRemovedEvent(voter_id=user_id, thread_id=thread_id),
            trace=trace,
        )

    return await database.transaction(work)


async def approve(
    database: Database, thread_id: int, request: ApproveRequest, *, trace: Trace
) -> JobStatusResponse:
    async def work(conn: asyncpg.Connection) -> JobStatusResponse:
        meta = await _open_by_thread(conn, thread_id)
        average = await repository.average_vote(conn, thread_id)
        if average is None:
            raise BadRequestError("There are no votes for this playtest.")
        raw = round(average, 2)
        await maps.set_playtesting(conn, meta.map_id, "Approved", raw_difficulty=raw)
        await repository.complete(conn, meta.id)
        creator = await maps.primary_creator(conn, meta.map_id)
        return await record(
            conn,
            playtest_id=meta.id,
            kind="approve",
            actor_id=request.verifier_id,
            details={"raw_difficulty": raw, **await _recipients(conn, meta.map_id, thread_id)},
            payload=lambda _: PlaytestApprovedEvent(
                verifier_id=request.verifier_id,
                difficulty=label_of(raw),
                thread_id=thread_id,
                primary_creator_id=creator,
                code=meta.code,
            ),
            trace=trace,
        )

    return await database.transaction(work)


async def force_accept(
    database: Database, thread_id: int, request: ForceAcceptRequest, *, trace: Trace
) -> JobStatusResponse:
    async def work(conn: asyncpg.Connection) -> JobStatusResponse:
        meta = await _open_by_thread(conn, thread_id)
        raw = midpoint(request.difficulty)
        await maps.set_playtesting(conn, meta.map_id, "Approved", raw_difficulty=raw)
        await repository.complete(conn, meta.id)
        return await record(
            conn,
            playtest_id=meta.id,
            kind="force_accept",
            actor_id=request.verifier_id,
            details={
                "difficulty": request.difficulty,
                "raw_difficulty": raw,
                **await _recipients(conn, meta.map_id, thread_id),
            },
            payload=lambda _: PlaytestForceAcceptedEvent(
                difficulty=request.difficulty,
                verifier_id=request.verifier_id,
                thread_id=thread_id,
            ),
            trace=trace,
        )

    return await database.transaction(work)


async def deny(
    conn: asyncpg.Connection,
    meta: OpenPlaytest,
    thread_id: int,
    *,
    verifier_id: int,
    reason: str,
    trace: Trace | None,
) -> JobStatusResponse:
    """Reject the map of the open playtest in `thread_id`, hide it and close the playtest."""
    await maps.set_playtesting(conn, meta.map_id, "Rejected", hidden=True)
    await repository.complete(conn, meta.id)
    return await record(
        conn,
        playtest_id=meta.id,
        kind="force_deny",
        actor_id=verifier_id,
        details={"reason": reason},
        payload=lambda _: PlaytestForceDeniedEvent(
            verifier_id=verifier_id, reason=reason, thread_id=thread_id
        ),
        trace=trace,
    )


async def force_deny(
    database: Database, thread_id: int, request: ForceDenyRequest, *, trace: Trace
) -> JobStatusResponse:
    async def work(conn: asyncpg.Connection) -> JobStatusResponse:
        meta = await _open_by_thread(conn, thread_id)
        return await deny(
            conn,
            meta,
            thread_id,
            verifier_id=request.verifier_id,
            reason=request.reason,
            trace=trace,
        )

    return await database.transaction(work)


async def reset(
    database: Database, thread_id: int, request: ResetRequest, *, trace: Trace
) -> JobStatusResponse:
    async def work(conn: asyncpg.Connection) -> JobStatusResponse:
        meta = await _open_by_thread(conn, thread_id)
        votes = await repository.delete_votes(conn, thread_id) if request.remove_votes else 0
        completions = (
            await repository.delete_completions_since(conn, meta.map_id, meta.created_at)
            if request.remove_completions
            else 0
        )
        generation = await repository.bump_reset_generation(conn, meta.id)
        return await record(
            conn,
            playtest_id=meta.id,
            kind="reset",
            actor_id=request.verifier_id,
            details={
                "reason": request.reason,
                "remove_votes": request.remove_votes,
                "remove_completions": request.remove_completions,
                "votes_removed": votes,
                "completions_removed": completions,
                "reset_generation": generation,
            },
            payload=lambda transition_id: PlaytestResetEvent(
                transition_id=transition_id,
                verifier_id=request.verifier_id,
                reason=request.reason,
                remove_votes=request.remove_votes,
                remove_completions=request.remove_completions,
                thread_id=thread_id,
            ),
            trace=trace,
        )

    return await database.transaction(work)
