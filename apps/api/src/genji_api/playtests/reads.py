"""Reads of a playtest's current state: its map, creators, votes and last transitions."""

from __future__ import annotations

import asyncpg

from genji_api.playtests import repository
from genji_api.playtests.models import (
    PlaytestCreator,
    PlaytestStateResponse,
    PlaytestTransition,
    PlaytestVote,
)
from genji_api.playtests.repository import NamedCreator, NamedVote, PlaytestState, TransitionRow
from genji_api.rows import maybe_row_as, rows_as

_NAME = "coalesce(nullif(u.global_name, ''), nullif(u.nickname, ''), 'Unknown User')"
VERDICTS = ("approve", "force_accept", "force_deny")


async def _transition(
    conn: asyncpg.Connection, playtest_id: int, kinds: tuple[str, ...]
) -> PlaytestTransition | None:
    row = maybe_row_as(
        TransitionRow,
        await conn.fetchrow(
            "SELECT id, kind, actor_id, details FROM playtests.transitions "
            "WHERE playtest_id = $1 AND kind = ANY($2::text[]) ORDER BY id DESC LIMIT 1",
            playtest_id,
            list(kinds),
        ),
    )
    if row is None:
        return None
    return PlaytestTransition(id=row.id, kind=row.kind, actor_id=row.actor_id, details=row.details)


async def state(
    conn: asyncpg.Connection, *, playtest_id: int | None = None, thread_id: int | None = None
) -> PlaytestStateResponse | None:
    """The playtest by id or by thread, None when there is none."""
    meta = maybe_row_as(
        PlaytestState,
        await conn.fetchrow(
            "SELECT p.id, p.map_id, p.thread_id, p.verification_id, p.initial_difficulty, "
            "p.completed, p.reset_generation, m.code, m.map_name, m.official, m.playtesting, "
            "m.hidden, m.difficulty FROM playtests.meta p JOIN core.maps m ON m.id = p.map_id "
            "WHERE p.id = $1 OR p.thread_id = $2",
            playtest_id,
            thread_id,
        ),
    )
    if meta is None:
        return None
    creators = rows_as(
        NamedCreator,
        await conn.fetch(
            f"SELECT c.user_id, {_NAME} AS name, c.is_primary FROM maps.creators c "
            "JOIN core.users u ON u.id = c.user_id WHERE c.map_id = $1 "
            "ORDER BY c.is_primary DESC, c.user_id",
            meta.map_id,
        ),
    )
    votes = (
        rows_as(
            NamedVote,
            await conn.fetch(
                f"SELECT v.user_id, {_NAME} AS name, v.difficulty FROM playtests.votes v "
                "JOIN core.users u ON u.id = v.user_id WHERE v.playtest_thread_id = $1 "
                "ORDER BY v.created_at, v.id",
                meta.thread_id,
            ),
        )
        if meta.thread_id is not None
        else []
    )
    initial = meta.initial_difficulty
    return PlaytestStateResponse(
        id=meta.id,
        map_id=meta.map_id,
        code=meta.code,
        map_name=meta.map_name,
        official=meta.official,
        playtesting=meta.playtesting,
        hidden=meta.hidden,
        difficulty=meta.difficulty,
        initial_difficulty=None if initial is None else float(initial),
        thread_id=meta.thread_id,
        verification_id=meta.verification_id,
        completed=meta.completed,
        reset_generation=meta.reset_generation,
        creators=[
            PlaytestCreator(id=r.user_id, name=r.name, is_primary=r.is_primary) for r in creators
        ],
        votes=[
            PlaytestVote(user_id=r.user_id, name=r.name, difficulty=float(r.difficulty))
            for r in votes
        ],
        last_reset=await _transition(conn, meta.id, ("reset",)),
        verdict=await _transition(conn, meta.id, VERDICTS),
        finalizable_vote_id=await repository.finalizable_vote(conn, meta.id),
    )
