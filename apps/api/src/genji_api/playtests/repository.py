"""SQL on playtests.meta, playtests.votes and playtests.transitions. Never commits."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

import asyncpg

from genji_api.rows import maybe_row_as, rows_as


@dataclass(frozen=True)
class OpenPlaytest:
    """A playtest's identity: enough to close it."""

    id: int
    map_id: int
    thread_id: int | None


@dataclass(frozen=True)
class LockedPlaytest(OpenPlaytest):
    verification_id: int | None
    completed: bool
    created_at: datetime
    reset_generation: int


@dataclass(frozen=True)
class ThreadPlaytest(OpenPlaytest):
    """A thread's playtest with its map's code."""

    completed: bool
    created_at: datetime
    reset_generation: int
    code: str


@dataclass(frozen=True)
class PlaytestState:
    """playtests.meta joined with its map, as the state read selects it."""

    id: int
    map_id: int
    thread_id: int | None
    verification_id: int | None
    initial_difficulty: Decimal | None
    completed: bool
    reset_generation: int
    code: str
    map_name: str
    official: bool
    playtesting: str
    hidden: bool
    difficulty: str | None


@dataclass(frozen=True)
class NamedCreator:
    user_id: int
    name: str
    is_primary: bool


@dataclass(frozen=True)
class NamedVote:
    user_id: int
    name: str
    difficulty: Decimal


@dataclass(frozen=True)
class TransitionRow:
    id: int
    kind: str
    actor_id: int | None
    details: dict[str, Any]


async def insert_meta(
    conn: asyncpg.Connection, map_id: int, initial_difficulty: float | None
) -> int | None:
    """The new playtest's id, or None when the map already has an open playtest."""
    playtest_id: int | None = await conn.fetchval(
        "INSERT INTO playtests.meta (map_id, initial_difficulty) VALUES ($1, $2) "
        "ON CONFLICT (map_id) WHERE NOT completed DO NOTHING RETURNING id",
        map_id,
        initial_difficulty,
    )
    return playtest_id


async def lock_meta(conn: asyncpg.Connection, playtest_id: int) -> LockedPlaytest | None:
    return maybe_row_as(
        LockedPlaytest,
        await conn.fetchrow(
            "SELECT id, map_id, thread_id, verification_id, completed, created_at, "
            "reset_generation FROM playtests.meta WHERE id = $1 FOR UPDATE",
            playtest_id,
        ),
    )


async def lock_meta_by_thread(conn: asyncpg.Connection, thread_id: int) -> ThreadPlaytest | None:
    """The playtest of a thread with its map's code, both rows locked."""
    return maybe_row_as(
        ThreadPlaytest,
        await conn.fetchrow(
            "SELECT p.id, p.map_id, p.thread_id, p.completed, p.created_at, p.reset_generation, "
            "m.code FROM playtests.meta p JOIN core.maps m ON m.id = p.map_id "
            "WHERE p.thread_id = $1 FOR UPDATE",
            thread_id,
        ),
    )


async def bind_thread(
    conn: asyncpg.Connection, playtest_id: int, thread_id: int, verification_id: int | None
) -> None:
    await conn.execute(
        "UPDATE playtests.meta SET thread_id = $2, "
        "verification_id = coalesce($3, verification_id) WHERE id = $1",
        playtest_id,
        thread_id,
        verification_id,
    )


async def complete(conn: asyncpg.Connection, playtest_id: int) -> None:
    await conn.execute("UPDATE playtests.meta SET completed = true WHERE id = $1", playtest_id)


async def open_playtests_of_maps(
    conn: asyncpg.Connection, map_ids: list[int]
) -> list[OpenPlaytest]:
    return rows_as(
        OpenPlaytest,
        await conn.fetch(
            "SELECT id, map_id, thread_id FROM playtests.meta "
            "WHERE map_id = ANY($1::int[]) AND NOT completed ORDER BY id FOR UPDATE",
            map_ids,
        ),
    )


async def insert_transition(
    conn: asyncpg.Connection,
    playtest_id: int,
    kind: str,
    actor_id: int | None,
    details: dict[str, Any] | None = None,
) -> int:
    transition_id: int = await conn.fetchval(
        "INSERT INTO playtests.transitions (playtest_id, kind, actor_id, details) "
        "VALUES ($1, $2, $3, $4::jsonb) RETURNING id",
        playtest_id,
        kind,
        actor_id,
        json.dumps(details or {}),
    )
    return transition_id


async def upsert_vote(
    conn: asyncpg.Connection, user_id: int, map_id: int, thread_id: int, difficulty: float
) -> None:
    await conn.execute(
        """
        INSERT INTO playtests.votes (user_id, map_id, playtest_thread_id, difficulty)
        VALUES ($1, $2, $3, $4)
        ON CONFLICT ON CONSTRAINT votes_user_id_map_id_playtest_thread_id_unique
        DO UPDATE SET difficulty = EXCLUDED.difficulty
        """,
        user_id,
        map_id,
        thread_id,
        difficulty,
    )


async def delete_vote(conn: asyncpg.Connection, user_id: int, map_id: int, thread_id: int) -> bool:
    deleted = await conn.fetchval(
        "DELETE FROM playtests.votes WHERE user_id = $1 AND map_id = $2 "
        "AND playtest_thread_id = $3 RETURNING id",
        user_id,
        map_id,
        thread_id,
    )
    return deleted is not None


async def average_vote(conn: asyncpg.Connection, thread_id: int) -> float | None:
    value = await conn.fetchval(
        "SELECT avg(difficulty) FROM playtests.votes WHERE playtest_thread_id = $1", thread_id
    )
    return None if value is None else float(value)


async def delete_votes(conn: asyncpg.Connection, thread_id: int) -> int:
    status: str = await conn.execute(
        "DELETE FROM playtests.votes WHERE playtest_thread_id = $1", thread_id
    )
    return int(status.split()[-1])


async def bump_reset_generation(conn: asyncpg.Connection, playtest_id: int) -> int:
    generation: int = await conn.fetchval(
        "UPDATE playtests.meta SET reset_generation = reset_generation + 1 WHERE id = $1 "
        "RETURNING reset_generation",
        playtest_id,
    )
    return generation


async def delete_completions_since(conn: asyncpg.Connection, map_id: int, since: datetime) -> int:
    """Delete the map's runs submitted since `since`, with the flags and upvotes naming them."""
    ids = [
        row["id"]
        for row in await conn.fetch(
            "SELECT id FROM core.completions WHERE map_id = $1 AND inserted_at >= $2 FOR UPDATE",
            map_id,
            since,
        )
    ]
    if not ids:
        return 0
    await conn.execute(
        "DELETE FROM users.suspicious_flags WHERE completion_id = ANY($1::int[])", ids
    )
    await conn.execute(
        "DELETE FROM completions.upvotes WHERE message_id IN "
        "(SELECT message_id FROM core.completions WHERE id = ANY($1::int[]))",
        ids,
    )
    await conn.execute("DELETE FROM core.completions WHERE id = ANY($1::int[])", ids)
    return len(ids)


async def creator_ids(conn: asyncpg.Connection, map_id: int) -> list[int]:
    rows = await conn.fetch(
        "SELECT user_id FROM maps.creators WHERE map_id = $1 ORDER BY is_primary DESC, user_id",
        map_id,
    )
    return [row["user_id"] for row in rows]


async def voter_ids(conn: asyncpg.Connection, thread_id: int) -> list[int]:
    rows = await conn.fetch(
        "SELECT user_id FROM playtests.votes WHERE playtest_thread_id = $1 ORDER BY user_id",
        thread_id,
    )
    return [row["user_id"] for row in rows]


async def vote_count(conn: asyncpg.Connection, thread_id: int) -> int:
    count: int = await conn.fetchval(
        "SELECT count(*) FROM playtests.votes WHERE playtest_thread_id = $1", thread_id
    )
    return count


async def finalizable_vote(conn: asyncpg.Connection, playtest_id: int) -> int | None:
    """The vote transition that made the playtest finalizable since its last reset, if any."""
    transition_id: int | None = await conn.fetchval(
        """
        SELECT max(id) FROM playtests.transitions
        WHERE playtest_id = $1 AND kind = 'vote_cast'
          AND coalesce((details ->> 'finalizable')::boolean, false)
          AND id > coalesce((SELECT max(id) FROM playtests.transitions
                             WHERE playtest_id = $1 AND kind = 'reset'), 0)
        """,
        playtest_id,
    )
    return transition_id
