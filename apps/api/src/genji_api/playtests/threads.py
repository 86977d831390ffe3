"""Bind a playtest to its forum thread inside the caller's transaction.

Two writers share it: PATCH /maps/playtests/{playtest_id} and the mirror of the bot's thread
creation (`playtest.thread`), which records the thread id in the transaction that completes the
send's binding, so a replayed creation finds its thread instead of opening another.
"""

from __future__ import annotations

import asyncpg

from genji_api.effects.mirrors import SentIds
from genji_api.errors import BadRequestError, ConflictError, NotFoundError
from genji_api.playtests import repository
from genji_api.playtests.models import PlaytestResponse


async def bind(
    conn: asyncpg.Connection, playtest_id: int, thread_id: int, verification_id: int | None
) -> PlaytestResponse:
    """Record the thread; the same thread again changes nothing, another one is a conflict."""
    meta = await repository.lock_meta(conn, playtest_id)
    if meta is None:
        raise NotFoundError(f"No playtest found with id: {playtest_id}")
    if meta.thread_id is not None and meta.thread_id != thread_id:
        raise ConflictError(f"Playtest {playtest_id} is already bound to thread {meta.thread_id}.")
    try:
        await repository.bind_thread(conn, playtest_id, thread_id, verification_id)
    except asyncpg.UniqueViolationError:
        raise ConflictError(f"Thread {thread_id} already belongs to another playtest.") from None
    return PlaytestResponse(
        id=playtest_id,
        map_id=meta.map_id,
        thread_id=thread_id,
        verification_id=verification_id or meta.verification_id,
    )


async def write_thread(conn: asyncpg.Connection, playtest_id: int, sent: SentIds) -> None:
    """The `playtest.thread` mirror: the created thread's id becomes the playtest's."""
    if sent.thread_id is None:
        raise BadRequestError("A playtest thread send must record the thread id.")
    await bind(conn, playtest_id, sent.thread_id, None)
