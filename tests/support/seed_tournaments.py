"""Tournament rows a test needs: categories, editions, cycles and submissions (owner's own)."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import asyncpg

from . import seed

_names = itertools.count(1)

PLACEMENT_XP = [{"place": 1, "xp": 100}, {"place": 2, "xp": 50}]
STREAK_XP = [{"threshold": 1, "xp": 7}]


async def category(
    conn: asyncpg.Connection,
    *,
    placement_xp: list[dict[str, int]] | None = None,
    streak_xp: list[dict[str, int]] | None = None,
) -> int:
    category_id: int = await conn.fetchval(
        "INSERT INTO tournaments.categories (name, placement_xp, streak_xp) "
        "VALUES ($1, $2::jsonb, $3::jsonb) RETURNING id",
        f"Category {next(_names)}",
        json.dumps(PLACEMENT_XP if placement_xp is None else placement_xp),
        json.dumps(STREAK_XP if streak_xp is None else streak_xp),
    )
    return category_id


async def edition(
    conn: asyncpg.Connection,
    *,
    started_at: datetime,
    ends_at: datetime,
    status: str = "active",
    start_announced: bool = False,
) -> int:
    edition_id: int = await conn.fetchval(
        "INSERT INTO tournaments.editions (started_at, ends_at, status, start_announced) "
        "VALUES ($1, $2, $3, $4) RETURNING id",
        started_at,
        ends_at,
        status,
        start_announced,
    )
    return edition_id


async def cycle(
    conn: asyncpg.Connection, edition_id: int, category_id: int, map_id: int, status: str
) -> int:
    cycle_id: int = await conn.fetchval(
        "INSERT INTO tournaments.cycles (edition_id, category_id, map_id, status, started_at) "
        "VALUES ($1, $2, $3, $4, now()) RETURNING id",
        edition_id,
        category_id,
        map_id,
        status,
    )
    return cycle_id


async def submission(
    conn: asyncpg.Connection,
    cycle_id: int,
    user_id: int,
    map_id: int,
    time: float,
    *,
    status: str = "verified",
    video: str | None = None,
) -> int:
    completion_id: int = await conn.fetchval(
        "INSERT INTO tournaments.completions (cycle_id, user_id, map_id, time, screenshot, "
        "video, status) VALUES ($1, $2, $3, $4, 'https://img.example/t.png', $5, $6) "
        "RETURNING id",
        cycle_id,
        user_id,
        map_id,
        time,
        video,
        status,
    )
    return completion_id


@dataclass(frozen=True)
class EndedEdition:
    category_id: int
    map_ids: list[int]
    edition_id: int
    cycle_id: int
    next_edition_id: int
    next_cycle_id: int
    winner: int
    runner_up: int
    pending_user: int | None
    pending_completion_id: int | None


async def ended_edition(
    conn: asyncpg.Connection, *, pending: bool = False, start_announced: bool = False
) -> EndedEdition:
    """An edition awaiting results (two verified runs, optionally one pending) and its successor."""
    category_id = await category(conn)
    map_ids = [(await seed.game_map(conn))[0] for _ in range(3)]
    now = datetime.now(UTC)
    edition_id = await edition(
        conn,
        started_at=now - timedelta(days=8),
        ends_at=now - timedelta(days=1),
        status="awaiting_results",
        start_announced=start_announced,
    )
    cycle_id = await cycle(conn, edition_id, category_id, map_ids[0], "finalizing")
    next_id = await edition(
        conn, started_at=now - timedelta(days=1), ends_at=now + timedelta(days=6)
    )
    next_cycle = await cycle(conn, next_id, category_id, map_ids[1], "active")
    winner = await seed.user(conn)
    runner_up = await seed.user(conn)
    await submission(conn, cycle_id, winner, map_ids[0], 50.0, video="https://v.example/1")
    await submission(conn, cycle_id, runner_up, map_ids[0], 60.0, video="https://v.example/2")
    await submission(conn, cycle_id, winner, map_ids[0], 70.0, status="rejected")
    pending_user = pending_completion = None
    if pending:
        pending_user = await seed.user(conn)
        pending_completion = await submission(
            conn, cycle_id, pending_user, map_ids[0], 40.0, status="pending"
        )
    return EndedEdition(
        category_id=category_id,
        map_ids=map_ids,
        edition_id=edition_id,
        cycle_id=cycle_id,
        next_edition_id=next_id,
        next_cycle_id=next_cycle,
        winner=winner,
        runner_up=runner_up,
        pending_user=pending_user,
        pending_completion_id=pending_completion,
    )


@dataclass(frozen=True)
class LiveEdition:
    category_id: int
    map_ids: list[int]
    edition_id: int
    cycle_id: int


async def live_edition(conn: asyncpg.Connection, *, maps: int = 3) -> LiveEdition:
    """An active edition with one active cycle, and spare eligible maps for rerolls."""
    category_id = await category(conn)
    map_ids = [(await seed.game_map(conn))[0] for _ in range(maps)]
    now = datetime.now(UTC)
    edition_id = await edition(conn, started_at=now, ends_at=now + timedelta(days=7))
    cycle_id = await cycle(conn, edition_id, category_id, map_ids[0], "active")
    return LiveEdition(category_id, map_ids, edition_id, cycle_id)


async def jobs_by_key(conn: asyncpg.Connection, prefix: str = "") -> dict[str, str]:
    """event_key -> action of every job whose key starts with `prefix`."""
    rows = await conn.fetch(
        "SELECT event_key, action FROM jobs WHERE event_key LIKE $1 || '%' ORDER BY event_seq",
        prefix,
    )
    return {r["event_key"]: r["action"] for r in rows}


async def job_payload(conn: asyncpg.Connection, event_key: str) -> dict[str, object]:
    """The payload of the queued job with this key, as its handler will read it."""
    raw = await conn.fetchval(
        "SELECT q.payload FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id "
        "WHERE j.event_key = $1",
        event_key,
    )
    envelope = json.loads(bytes(raw))
    payload: dict[str, object] = envelope["payload"]
    return payload
