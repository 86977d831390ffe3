"""POST /completions/: the run, its tournament linkage, the superseded run's cleanup and the
review job (OCR or manual) commit in one transaction."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import (
    OcrVerificationRequestedEvent,
    TournamentOcrVerificationRequestedEvent,
    VerificationMessageDeleteEvent,
)

from genji_api.completions import repository as repo
from genji_api.completions.models import CompletionSubmissionResponse, CompletionSubmitRequest
from genji_api.completions.review_card import enqueue_review_card
from genji_api.completions.rows import InsertedRun
from genji_api.database import Database
from genji_api.errors import BadRequestError, ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_job
from genji_api.tournaments.review_card import enqueue_tournament_review_card

PERSONAL_BEST_TRIGGER = "completions_must_beat_personal_best"


@dataclass(frozen=True)
class _Context:
    body: CompletionSubmitRequest
    map_id: int
    code: str
    completion_only: bool
    cycle_id: int | None
    bot_user_id: int
    trace: Trace | None


class _NotPersonalBest(Exception):
    """The personal-best trigger refused the run (its savepoint is rolled back)."""


async def _supersede(conn: asyncpg.Connection, ctx: _Context) -> None:
    """Reject the user's pending run on the map when this one is faster."""
    pending = await repo.pending_run(conn, ctx.body.user_id, ctx.map_id)
    if pending is None:
        return
    if ctx.body.time >= float(pending.time):
        if ctx.cycle_id is None:
            raise BadRequestError(
                f"Your submitted time ({ctx.body.time}) is not faster than your pending "
                f"submission ({float(pending.time)}). Wait for it to be verified or submit "
                "a faster time.",
                extra={"submitted_time": ctx.body.time, "pending_time": float(pending.time)},
            )
        return  # on a tournament map the trigger sends it down the tournament-only path
    await repo.reject_superseded(conn, pending.id, ctx.bot_user_id)
    if pending.verification_id is not None:
        await enqueue_job(
            conn,
            payload=VerificationMessageDeleteEvent(verification_id=pending.verification_id),
            event_key=f"completion:verification-delete:{pending.id}",
            entity_key=f"completion:{pending.id}",
            trace=ctx.trace,
        )


async def _insert_run(conn: asyncpg.Connection, ctx: _Context) -> InsertedRun:
    """Supersede and insert under one savepoint, so a refused run leaves the pending one be."""
    body = ctx.body
    try:
        async with conn.transaction():
            await _supersede(conn, ctx)
            return await repo.insert_completion(
                conn,
                map_id=ctx.map_id,
                user_id=body.user_id,
                time=body.time,
                screenshot=body.screenshot,
                video=body.video,
                completion=ctx.completion_only,
            )
    except asyncpg.CheckViolationError as error:
        if error.constraint_name != PERSONAL_BEST_TRIGGER:
            raise
        raise _NotPersonalBest from None
    except asyncpg.UniqueViolationError:
        raise ConflictError("You already have a completion for this map.") from None


async def _tournament_only(
    conn: asyncpg.Connection, ctx: _Context, cycle_id: int
) -> CompletionSubmissionResponse:
    body = ctx.body
    row = await repo.insert_tournament_completion(
        conn,
        cycle_id=cycle_id,
        map_id=ctx.map_id,
        user_id=body.user_id,
        time=body.time,
        screenshot=body.screenshot,
        video=body.video,
    )
    tc_id, time = row.id, float(row.time)
    entity = f"tournament-completion:{tc_id}"
    if body.video is None:
        await enqueue_job(
            conn,
            payload=TournamentOcrVerificationRequestedEvent(
                tournament_completion_id=tc_id,
                cycle_id=cycle_id,
                user_id=body.user_id,
                code=ctx.code,
                time=time,
                screenshot=body.screenshot,
            ),
            event_key=f"tournament:ocr:{tc_id}",
            entity_key=entity,
            trace=ctx.trace,
        )
        return CompletionSubmissionResponse(job_status=None, completion_id=0)
    job = await enqueue_tournament_review_card(
        conn,
        tournament_completion_id=tc_id,
        cycle_id=cycle_id,
        user_id=body.user_id,
        time=time,
        video=body.video,
        screenshot=body.screenshot,
        trace=ctx.trace,
    )
    return CompletionSubmissionResponse(job_status=job, completion_id=0)


async def _review(
    conn: asyncpg.Connection, ctx: _Context, completion_id: int, time: float
) -> JobStatusResponse | None:
    """OCR for a screenshot-only run of an unflagged user (None), else manual review (its job)."""
    body = ctx.body
    entity = f"completion:{completion_id}"
    if body.video is None and not await repo.is_flagged(conn, body.user_id):
        await enqueue_job(
            conn,
            payload=OcrVerificationRequestedEvent(
                completion_id=completion_id,
                user_id=body.user_id,
                code=ctx.code,
                time=time,
                screenshot=body.screenshot,
            ),
            event_key=f"completion:ocr:{completion_id}",
            entity_key=entity,
            trace=ctx.trace,
        )
        return None
    return await enqueue_review_card(
        conn, completion_id=completion_id, user_id=body.user_id, trace=ctx.trace
    )


async def submit_completion(
    database: Database,
    body: CompletionSubmitRequest,
    *,
    bot_user_id: int,
    trace: Trace | None = None,
) -> CompletionSubmissionResponse:
    async def work(conn: asyncpg.Connection) -> CompletionSubmissionResponse:
        game_map = await repo.map_for_submission(conn, body.code)
        if game_map is None:
            raise NotFoundError("map code does not exist or has been archived")
        if not await repo.lock_user(conn, body.user_id):
            raise NotFoundError(f"No user found with id: {body.user_id}")
        cycle_id = await repo.active_cycle_id(conn, game_map.id)
        ctx = _Context(
            body=body,
            map_id=game_map.id,
            code=game_map.code,
            completion_only=(
                game_map.playtesting == "In Progress" or body.video is None or not game_map.official
            ),
            cycle_id=cycle_id,
            bot_user_id=bot_user_id,
            trace=trace,
        )
        try:
            run = await _insert_run(conn, ctx)
        except _NotPersonalBest:
            if cycle_id is None:
                raise BadRequestError(
                    f"Your submitted time ({body.time}) is not faster than your personal best "
                    "on this map.",
                    extra={"submitted_time": body.time},
                ) from None
            return await _tournament_only(conn, ctx, cycle_id)
        completion_id, time = run.id, float(run.time)
        if cycle_id is not None:
            tc = await repo.insert_tournament_completion(
                conn,
                cycle_id=cycle_id,
                map_id=ctx.map_id,
                user_id=body.user_id,
                time=body.time,
                screenshot=body.screenshot,
                video=body.video,
            )
            await repo.link_tournament_completion(conn, completion_id, tc.id)
        job = await _review(conn, ctx, completion_id, time)
        return CompletionSubmissionResponse(job_status=job, completion_id=completion_id)

    return await database.transaction(work)
