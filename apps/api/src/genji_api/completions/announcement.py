"""The bot's reads of a completion's current state, taken again by every job that acts on it."""

from __future__ import annotations

import asyncpg

from genji_api.completions import announcement_repository as repo
from genji_api.completions.models import CompletionAnnouncement, CompletionState, PostUpvotes
from genji_api.database import Database
from genji_api.errors import NotFoundError
from genji_api.users.repository import display_name


def completion_state(verified: bool, verified_by: int | None) -> CompletionState:
    if verified:
        return "verified"
    return "pending" if verified_by is None else "rejected"


async def get_announcement(database: Database, completion_id: int) -> CompletionAnnouncement:
    async def read(conn: asyncpg.Connection) -> CompletionAnnouncement:
        row = await repo.announcement(conn, completion_id)
        if row is None:
            raise NotFoundError(f"Completion {completion_id} does not exist.")
        verifier = row.verified_by
        return CompletionAnnouncement(
            id=row.id,
            code=row.code,
            map_name=row.map_name,
            official=row.official,
            difficulty=row.difficulty,
            user_id=row.user_id,
            name=await display_name(conn, row.user_id),
            time=float(row.time),
            screenshot=row.screenshot,
            video=row.video,
            state=completion_state(row.verified, row.verified_by),
            completion=row.completion,
            verified_by=verifier,
            verified_by_name=None if verifier is None else await display_name(conn, verifier),
            reason=row.reason,
            verification_id=row.verification_id,
            message_id=row.message_id,
            latest_transition_id=row.latest_transition_id,
            rank=row.rank,
            upvotes=row.upvotes,
        )

    return await database.read(read)


async def get_post_upvotes(database: Database, message_id: int) -> PostUpvotes:
    row = await database.read(lambda conn: repo.posted_upvotes(conn, message_id))
    if row is None:
        raise NotFoundError(f"No completion was posted as message {message_id}.")
    return PostUpvotes(completion_id=row.id, message_id=message_id, upvotes=row.upvotes)
