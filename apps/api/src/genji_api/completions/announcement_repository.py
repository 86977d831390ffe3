"""SQL of the bot's reads: a completion as its cards show it, and a post's current upvotes."""

from __future__ import annotations

import asyncpg

from genji_api.completions.rows import Announcement, PostedUpvotes
from genji_api.rows import maybe_row_as

# Rank among the other players' verified record runs on the map: one more than the number of
# players with a strictly faster one (ties share a rank).
_RANK = """
    SELECT 1 + count(DISTINCT o.user_id) FROM core.completions o
    WHERE o.map_id = c.map_id AND o.verified AND NOT o.completion AND NOT o.legacy
      AND o.user_id <> c.user_id AND o.time < c.time
"""


async def announcement(conn: asyncpg.Connection, completion_id: int) -> Announcement | None:
    record = await conn.fetchrow(
        f"""
        SELECT c.id, m.code, m.map_name, m.official, m.difficulty, c.user_id, c.time,
               c.screenshot, c.video, c.verified, c.verified_by, c.reason, c.completion,
               c.verification_id, c.message_id,
               (SELECT max(t.id) FROM completions.verification_transitions t
                WHERE t.completion_id = c.id) AS latest_transition_id,
               CASE WHEN c.verified AND NOT c.completion THEN ({_RANK}) END AS rank,
               (SELECT count(*) FROM completions.upvotes u
                WHERE c.message_id IS NOT NULL AND u.message_id = c.message_id) AS upvotes
        FROM core.completions c JOIN core.maps m ON m.id = c.map_id WHERE c.id = $1
        """,
        completion_id,
    )
    return maybe_row_as(Announcement, record)


async def posted_upvotes(conn: asyncpg.Connection, message_id: int) -> PostedUpvotes | None:
    return maybe_row_as(
        PostedUpvotes,
        await conn.fetchrow(
            "SELECT c.id, (SELECT count(*) FROM completions.upvotes u WHERE u.message_id = $1) "
            "AS upvotes FROM core.completions c WHERE c.message_id = $1",
            message_id,
        ),
    )
