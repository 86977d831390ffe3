"""Completion verification, upvotes, the bot's message ids and its submission read."""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import UpvoteUpdateEvent

from genji_api.completions import repository as repo
from genji_api.completions.announcement import completion_state
from genji_api.completions.models import (
    CompletionPatched,
    CompletionPatchRequest,
    CompletionSubmission,
    UpvoteRequest,
    UpvoteResponse,
    VerificationRequest,
)
from genji_api.completions.verification import apply_completion_verdict
from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.errors import ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_job
from genji_api.users.repository import lock_user

# The effects handlers request here, and the jobs that may request each.
COMPLETION_MESSAGE_EFFECTS = rule(
    message=["api.completion.submission", "api.completion.verification"]
)

UPVOTE_MILESTONE = 10


async def set_verification(
    database: Database,
    completion_id: int,
    body: VerificationRequest,
    *,
    trace: Trace | None = None,
) -> JobStatusResponse:
    async def work(conn: asyncpg.Connection) -> JobStatusResponse:
        await lock_user(conn, body.verified_by)
        return await apply_completion_verdict(
            conn,
            completion_id=completion_id,
            verified=body.verified,
            verified_by=body.verified_by,
            reason=body.reason,
            trace=trace,
            if_pending=body.if_pending,
        )

    return await database.transaction(work)


async def upvote(
    database: Database, body: UpvoteRequest, *, trace: Trace | None = None
) -> UpvoteResponse:
    async def work(conn: asyncpg.Connection) -> UpvoteResponse:
        completion = await repo.lock_message_completion(conn, body.message_id)
        if completion is None:
            raise NotFoundError(f"No completion was posted as message {body.message_id}.")
        await lock_user(conn, body.user_id)
        if not await repo.insert_upvote(conn, body.user_id, body.message_id):
            raise ConflictError("User has already upvoted this completion.")
        count = await repo.upvote_count(conn, body.message_id)
        if count % UPVOTE_MILESTONE:
            return UpvoteResponse(job_status=None, upvotes=count)
        # The payload names the post's author, so a milestone reached again after votes were
        # withdrawn resolves to the milestone's first job.
        job = await enqueue_job(
            conn,
            payload=UpvoteUpdateEvent(
                user_id=completion.user_id, message_id=body.message_id, milestone=count
            ),
            event_key=f"completion:upvote:{body.message_id}:{count}",
            entity_key=None,
            trace=trace,
        )
        return UpvoteResponse(job_status=job, upvotes=count)

    return await database.transaction(work)


async def patch_completion(
    database: Database,
    completion_id: int,
    body: CompletionPatchRequest,
    *,
    effect: EffectContext | None = None,
) -> CompletionPatched:
    async def work(conn: asyncpg.Connection) -> CompletionPatched:
        async def perform() -> CompletionPatched:
            try:
                found = await repo.set_messages(
                    conn,
                    completion_id,
                    verification_id=body.verification_id,
                    message_id=body.message_id,
                )
            except asyncpg.UniqueViolationError:
                raise ConflictError(
                    f"Message {body.message_id} already belongs to another completion."
                ) from None
            if not found:
                raise NotFoundError(f"Completion {completion_id} does not exist.")
            return CompletionPatched(completion_id=completion_id)

        return await once(
            conn, effect, body, CompletionPatched, perform, rule=COMPLETION_MESSAGE_EFFECTS
        )

    return await database.transaction(work)


async def get_submission(database: Database, completion_id: int) -> CompletionSubmission:
    row = await database.read(lambda conn: repo.submission(conn, completion_id))
    if row is None:
        raise NotFoundError(f"Completion {completion_id} does not exist.")
    return CompletionSubmission(
        id=row.id,
        code=row.code,
        user_id=row.user_id,
        time=float(row.time),
        screenshot=row.screenshot,
        video=row.video,
        state=completion_state(row.verified, row.verified_by),
        completion=row.completion,
        verified_by=row.verified_by,
        reason=row.reason,
        verification_id=row.verification_id,
        message_id=row.message_id,
    )
