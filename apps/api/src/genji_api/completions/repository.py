"""SQL on core.completions and completions.upvotes for submission, upvotes and the bot's reads."""

from __future__ import annotations

import asyncpg

from genji_api.completions.rows import (
    InsertedRun,
    PendingRun,
    PostedCompletion,
    Submission,
    SubmissionMap,
)
from genji_api.effects.mirrors import SentIds
from genji_api.rows import maybe_row_as, row_as

SUPERSEDED_REASON = "Superseded by a faster submission"


async def map_for_submission(conn: asyncpg.Connection, code: str) -> SubmissionMap | None:
    """The map a run is submitted on, unless it is archived."""
    return maybe_row_as(
        SubmissionMap,
        await conn.fetchrow(
            "SELECT id, code, official, playtesting FROM core.maps "
            "WHERE code = $1 AND NOT archived",
            code,
        ),
    )


async def lock_user(conn: asyncpg.Connection, user_id: int) -> bool:
    """Lock the user's row so the user's submissions run one after the other; False if unknown."""
    found = await conn.fetchval(
        "SELECT true FROM core.users WHERE id = $1 FOR NO KEY UPDATE", user_id
    )
    return found is not None


async def active_cycle_id(conn: asyncpg.Connection, map_id: int) -> int | None:
    cycle_id: int | None = await conn.fetchval(
        "SELECT c.id FROM tournaments.cycles c JOIN tournaments.editions e ON e.id = c.edition_id "
        "WHERE c.map_id = $1 AND c.status = 'active' AND e.status = 'active' "
        "ORDER BY c.id DESC LIMIT 1",
        map_id,
    )
    return cycle_id


async def pending_run(conn: asyncpg.Connection, user_id: int, map_id: int) -> PendingRun | None:
    return maybe_row_as(
        PendingRun,
        await conn.fetchrow(
            "SELECT id, time, verification_id FROM core.completions "
            "WHERE user_id = $1 AND map_id = $2 AND NOT legacy "
            "AND NOT verified AND verified_by IS NULL "
            "ORDER BY inserted_at DESC, id DESC LIMIT 1 FOR UPDATE",
            user_id,
            map_id,
        ),
    )


async def reject_superseded(conn: asyncpg.Connection, completion_id: int, bot_user_id: int) -> None:
    await conn.execute(
        "UPDATE core.completions SET verified = false, verified_by = $2, reason = $3 WHERE id = $1",
        completion_id,
        bot_user_id,
        SUPERSEDED_REASON,
    )


async def insert_completion(
    conn: asyncpg.Connection,
    *,
    map_id: int,
    user_id: int,
    time: float,
    screenshot: str,
    video: str | None,
    completion: bool,
) -> InsertedRun:
    """Insert the run; the personal-best trigger may refuse it (CheckViolationError)."""
    row = await conn.fetchrow(
        "INSERT INTO core.completions (map_id, user_id, time, screenshot, video, completion) "
        "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, time",
        map_id,
        user_id,
        time,
        screenshot,
        video,
        completion,
    )
    return row_as(InsertedRun, row)


async def insert_tournament_completion(
    conn: asyncpg.Connection,
    *,
    cycle_id: int,
    map_id: int,
    user_id: int,
    time: float,
    screenshot: str,
    video: str | None,
) -> InsertedRun:
    row = await conn.fetchrow(
        "INSERT INTO tournaments.completions (cycle_id, user_id, map_id, time, screenshot, video) "
        "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, time",
        cycle_id,
        user_id,
        map_id,
        time,
        screenshot,
        video,
    )
    return row_as(InsertedRun, row)


async def link_tournament_completion(
    conn: asyncpg.Connection, completion_id: int, tournament_completion_id: int
) -> None:
    await conn.execute(
        "UPDATE core.completions SET tournament_completion_id = $2 WHERE id = $1",
        completion_id,
        tournament_completion_id,
    )


async def is_flagged(conn: asyncpg.Connection, user_id: int) -> bool:
    return bool(
        await conn.fetchval(
            "SELECT EXISTS (SELECT 1 FROM users.suspicious_flags WHERE user_id = $1)", user_id
        )
    )


async def lock_message_completion(
    conn: asyncpg.Connection, message_id: int
) -> PostedCompletion | None:
    """The completion posted as `message_id`, locked so its votes are counted one at a time."""
    return maybe_row_as(
        PostedCompletion,
        await conn.fetchrow(
            "SELECT id, user_id FROM core.completions WHERE message_id = $1 FOR NO KEY UPDATE",
            message_id,
        ),
    )


async def insert_upvote(conn: asyncpg.Connection, user_id: int, message_id: int) -> bool:
    inserted = await conn.fetchval(
        "INSERT INTO completions.upvotes (user_id, message_id) VALUES ($1, $2) "
        "ON CONFLICT (message_id, user_id) DO NOTHING RETURNING id",
        user_id,
        message_id,
    )
    return inserted is not None


async def upvote_count(conn: asyncpg.Connection, message_id: int) -> int:
    count: int = await conn.fetchval(
        "SELECT count(*) FROM completions.upvotes WHERE message_id = $1", message_id
    )
    return count


async def set_messages(
    conn: asyncpg.Connection,
    completion_id: int,
    *,
    verification_id: int | None,
    message_id: int | None,
) -> bool:
    """Store the bot's message ids (an absent one is left as it is); False if unknown."""
    updated = await conn.fetchval(
        "UPDATE core.completions SET verification_id = coalesce($2, verification_id), "
        "message_id = coalesce($3, message_id) WHERE id = $1 RETURNING id",
        completion_id,
        verification_id,
        message_id,
    )
    return updated is not None


async def submission(conn: asyncpg.Connection, completion_id: int) -> Submission | None:
    return maybe_row_as(
        Submission,
        await conn.fetchrow(
            "SELECT c.id, m.code, c.user_id, c.time, c.screenshot, c.video, c.verified, "
            "c.verified_by, c.reason, c.completion, c.verification_id, c.message_id "
            "FROM core.completions c JOIN core.maps m ON m.id = c.map_id WHERE c.id = $1",
            completion_id,
        ),
    )


async def write_verification_message(
    conn: asyncpg.Connection, completion_id: int, sent: SentIds
) -> None:
    """Mirror of the review card's binding: the completion's verification message."""
    await conn.execute(
        "UPDATE core.completions SET verification_id = $2 WHERE id = $1",
        completion_id,
        sent.message_id,
    )


async def write_completion_message(
    conn: asyncpg.Connection, completion_id: int, sent: SentIds
) -> None:
    """Mirror of the announcement's binding: the completions-channel message upvotes point at."""
    await conn.execute(
        "UPDATE core.completions SET message_id = $2 WHERE id = $1", completion_id, sent.message_id
    )
