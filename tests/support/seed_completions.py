"""Completion and tournament rows the completion tests need, inserted on the owner's connection."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from . import seed

SCREENSHOT = "https://img.example/run.png"
VIDEO = "https://video.example/run.mp4"
PARTICIPATION_XP = 40


@dataclass(frozen=True)
class ActiveCycle:
    edition_id: int
    category_id: int
    cycle_id: int
    map_id: int
    code: str


async def active_cycle(
    conn: asyncpg.Connection, *, participation_xp: int = PARTICIPATION_XP
) -> ActiveCycle:
    """An active edition with one active cycle on a fresh official map."""
    map_id, code = await seed.game_map(conn)
    category_id: int = await conn.fetchval(
        "INSERT INTO tournaments.categories (name, participation_xp) VALUES ($1, $2) RETURNING id",
        f"category-{code}",
        participation_xp,
    )
    edition_id: int = await conn.fetchval(
        "INSERT INTO tournaments.editions (started_at, ends_at, status) "
        "VALUES (now() - interval '1 day', now() + interval '6 days', 'active') RETURNING id"
    )
    cycle_id: int = await conn.fetchval(
        "INSERT INTO tournaments.cycles (edition_id, category_id, map_id, status, started_at) "
        "VALUES ($1, $2, $3, 'active', now() - interval '1 day') RETURNING id",
        edition_id,
        category_id,
        map_id,
    )
    return ActiveCycle(edition_id, category_id, cycle_id, map_id, code)


async def tournament_completion(
    conn: asyncpg.Connection,
    cycle: ActiveCycle,
    user_id: int,
    *,
    time: float = 90.0,
    video: str | None = None,
) -> int:
    tc_id: int = await conn.fetchval(
        "INSERT INTO tournaments.completions (cycle_id, user_id, map_id, time, screenshot, video) "
        "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        cycle.cycle_id,
        user_id,
        cycle.map_id,
        time,
        SCREENSHOT,
        video,
    )
    return tc_id


async def pending_completion(
    conn: asyncpg.Connection,
    map_id: int,
    user_id: int,
    *,
    time: float = 100.0,
    video: str | None = None,
    verification_id: int | None = None,
    message_id: int | None = None,
    tournament_completion_id: int | None = None,
) -> int:
    completion_id: int = await conn.fetchval(
        "INSERT INTO core.completions (map_id, user_id, time, screenshot, video, "
        "verification_id, message_id, tournament_completion_id) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        map_id,
        user_id,
        time,
        SCREENSHOT,
        video,
        verification_id,
        message_id,
        tournament_completion_id,
    )
    return completion_id


async def suspicious_flag(conn: asyncpg.Connection, user_id: int) -> None:
    await conn.execute(
        "INSERT INTO users.suspicious_flags (user_id, context, flag_type, flagged_by) "
        "VALUES ($1, 'test', 'Cheating', $1)",
        user_id,
    )


async def upvotes(conn: asyncpg.Connection, message_id: int, count: int) -> None:
    """`count` upvotes on the post `message_id`, each from a new user."""
    for _ in range(count):
        voter = await seed.user(conn)
        await conn.execute(
            "INSERT INTO completions.upvotes (user_id, message_id) VALUES ($1, $2)",
            voter,
            message_id,
        )
