"""Rows a scenario needs before its request, inserted on the soak's owner session. Every
scenario gets fresh users, maps and threads, so what one submission caused is told apart
from another's by its own ids."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import asyncpg

BASE_USER_ID = 10**18 + 10_000
BASE_THREAD_ID = 2 * 10**18
BASE_POST_ID = 9_100_000
_ids = itertools.count(1)
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def next_id() -> int:
    return next(_ids)


def new_code() -> str:
    """A map code of its own: 'S' and five base-36 digits."""
    n = next_id()
    digits = ""
    for _ in range(5):
        n, d = divmod(n, 36)
        digits = ALPHABET[d] + digits
    return "S" + digits


def screenshot(answer: str) -> str:
    """The fake OCR answers after the path: ocr-match, ocr-mismatch, ocr-error."""
    return f"https://img.example/{answer}/soak-{next_id()}.png"


VIDEO = "https://video.example/run.mp4"


async def user(conn: asyncpg.Connection, *, overwatch: bool = False) -> int:
    user_id = BASE_USER_ID + next_id()
    await conn.execute(
        "INSERT INTO core.users (id, nickname, global_name) VALUES ($1, $2, $2)",
        user_id,
        f"runner{user_id % 1_000_000}",
    )
    if overwatch:
        await conn.execute(
            "INSERT INTO users.overwatch_usernames (user_id, username, is_primary) "
            "VALUES ($1, $2, true)",
            user_id,
            f"Runner{user_id % 1_000_000}",
        )
    return user_id


async def game_map(
    conn: asyncpg.Connection,
    *,
    official: bool = True,
    playtesting: str = "Approved",
    creator: int | None = None,
    difficulty: float = 5.0,
) -> tuple[int, str]:
    code = new_code()
    map_id: int = await conn.fetchval(
        "INSERT INTO core.maps (code, map_name, official, playtesting, hidden, archived, "
        "raw_difficulty) VALUES ($1, 'Hanamura', $2, $3, false, false, $4) RETURNING id",
        code,
        official,
        playtesting,
        difficulty,
    )
    await conn.execute(
        "INSERT INTO maps.creators (map_id, user_id, is_primary) VALUES ($1, $2, true)",
        map_id,
        creator or await user(conn),
    )
    return map_id, code


async def completion(
    conn: asyncpg.Connection,
    map_id: int,
    user_id: int,
    *,
    verified: bool,
    time: float = 100.0,
    verification_id: int | None = None,
) -> int:
    completion_id: int = await conn.fetchval(
        "INSERT INTO core.completions (map_id, user_id, time, screenshot, verified, verified_by, "
        "verification_id) VALUES ($1, $2, $3, 'https://img.example/run.png', $4, $5, $6) "
        "RETURNING id",
        map_id,
        user_id,
        time,
        verified,
        user_id if verified else None,
        verification_id,
    )
    return completion_id


@dataclass(frozen=True)
class Cycle:
    cycle_id: int
    category_id: int
    map_id: int
    code: str


async def active_cycle(conn: asyncpg.Connection, *, spare_maps: int = 0) -> Cycle:
    """An active edition with one active cycle (and spare official maps for a reroll)."""
    map_id, code = await game_map(conn)
    for _ in range(spare_maps):
        await game_map(conn)
    category_id: int = await conn.fetchval(
        "INSERT INTO tournaments.categories (name, participation_xp) VALUES ($1, 40) RETURNING id",
        f"soak-{code}",
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
    return Cycle(cycle_id, category_id, map_id, code)


async def tournament_completion(conn: asyncpg.Connection, cycle: Cycle, user_id: int) -> int:
    tc_id: int = await conn.fetchval(
        "INSERT INTO tournaments.completions (cycle_id, user_id, map_id, time, screenshot) "
        "VALUES ($1, $2, $3, 90.0, 'https://img.example/run.png') RETURNING id",
        cycle.cycle_id,
        user_id,
        cycle.map_id,
    )
    return tc_id


async def ended_edition(conn: asyncpg.Connection) -> None:
    """An edition awaiting deferred results (its start already announced) and its successor:
    the API worker's tournament outbox publishes the results."""
    category_id: int = await conn.fetchval(
        "INSERT INTO tournaments.categories (name, placement_xp, streak_xp) "
        "VALUES ($1, $2::jsonb, $3::jsonb) RETURNING id",
        f"soak-results-{next_id()}",
        json.dumps([{"place": 1, "xp": 100}, {"place": 2, "xp": 50}]),
        json.dumps([{"threshold": 1, "xp": 7}]),
    )
    maps = [(await game_map(conn))[0] for _ in range(2)]
    now = datetime.now(UTC)
    ended: int = await conn.fetchval(
        "INSERT INTO tournaments.editions (started_at, ends_at, status, start_announced) "
        "VALUES ($1, $2, 'awaiting_results', true) RETURNING id",
        now - timedelta(days=8),
        now - timedelta(days=1),
    )
    following: int = await conn.fetchval(
        "INSERT INTO tournaments.editions (started_at, ends_at, status) "
        "VALUES ($1, $2, 'active') RETURNING id",
        now - timedelta(days=1),
        now + timedelta(days=6),
    )
    cycle: int = await conn.fetchval(
        "INSERT INTO tournaments.cycles (edition_id, category_id, map_id, status, started_at) "
        "VALUES ($1, $2, $3, 'finalizing', now()) RETURNING id",
        ended,
        category_id,
        maps[0],
    )
    await conn.execute(
        "INSERT INTO tournaments.cycles (edition_id, category_id, map_id, status, started_at) "
        "VALUES ($1, $2, $3, 'active', now())",
        following,
        category_id,
        maps[1],
    )
    for time in (50.0, 60.0):
        await conn.execute(
            "INSERT INTO tournaments.completions (cycle_id, user_id, map_id, time, screenshot, "
            "video, status) VALUES ($1, $2, $3, $4, 'https://img.example/t.png', "
            "'https://v.example/1', 'verified')",
            cycle,
            await user(conn),
            maps[0],
            time,
        )


@dataclass(frozen=True)
class Playtest:
    map_id: int
    code: str
    thread_id: int
    voter_id: int


async def playtest(conn: asyncpg.Connection, *, votes: int = 0) -> Playtest:
    """A map in playtesting with its open playtest bound to a thread, an eligible voter who has
    not voted, and `votes` votes by other eligible voters."""
    map_id, code = await game_map(conn, playtesting="In Progress", difficulty=4.0)
    thread_id = BASE_THREAD_ID + next_id()
    await conn.execute(
        "INSERT INTO playtests.meta (map_id, thread_id, initial_difficulty) VALUES ($1, $2, 4.0)",
        map_id,
        thread_id,
    )
    voter = await user(conn)
    await completion(conn, map_id, voter, verified=True)
    for _ in range(votes):
        other = await user(conn)
        await completion(conn, map_id, other, verified=True)
        await vote(conn, map_id, thread_id, other, 3.0)
    return Playtest(map_id, code, thread_id, voter)


async def vote(
    conn: asyncpg.Connection, map_id: int, thread_id: int, voter: int, difficulty: float
) -> None:
    await conn.execute(
        "INSERT INTO playtests.votes (user_id, map_id, playtest_thread_id, difficulty) "
        "VALUES ($1, $2, $3, $4)",
        voter,
        map_id,
        thread_id,
        difficulty,
    )


async def edit_request(conn: asyncpg.Connection) -> tuple[int, int]:
    """(edit request id, moderator)."""
    requester, moderator = await user(conn), await user(conn)
    map_id, code = await game_map(conn)
    edit_id: int = await conn.fetchval(
        "INSERT INTO maps.edit_requests (map_id, code, proposed_changes, reason, created_by) "
        "VALUES ($1, $2, $3::jsonb, 'Typo in the name', $4) RETURNING id",
        map_id,
        code,
        json.dumps({"map_name": "Lijiang Tower"}),
        requester,
    )
    return edit_id, moderator


async def upvoted_post(conn: asyncpg.Connection, upvotes: int) -> int:
    """A verified completion's post with `upvotes` upvotes; returns the post's message id."""
    map_id, _ = await game_map(conn)
    completion_id = await completion(conn, map_id, await user(conn), verified=True)
    message_id = BASE_POST_ID + next_id()
    await conn.execute(
        "UPDATE core.completions SET message_id = $2 WHERE id = $1", completion_id, message_id
    )
    for _ in range(upvotes):
        await conn.execute(
            "INSERT INTO completions.upvotes (user_id, message_id) VALUES ($1, $2)",
            await user(conn),
            message_id,
        )
    return message_id
