"""Playtest transitions inside the caller's transaction: one transitions row and job each.

The transitions row's id is the event key, so every transition that actually happened is its
own job (a second reset is new work), and re-enqueuing one transition resolves to its job.
"""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec
from genji_sdk.jobs import JobStatusResponse

from genji_api.http.tracing import Trace
from genji_api.playtests import repository
from genji_api.queue.enqueue import enqueue_job

# The event key's prefix per transition kind; the event itself is the payload's.
KEY_PREFIXES = {
    "approve": "playtest:approve",
    "force_accept": "playtest:force_accept",
    "force_deny": "playtest:force_deny",
    "reset": "playtest:reset",
    "vote_cast": "playtest:vote-cast",
    "vote_remove": "playtest:vote-remove",
}


def event_key(kind: str, transition_id: int) -> str:
    return f"{KEY_PREFIXES[kind]}:{transition_id}"


async def enqueue_transition(
    conn: asyncpg.Connection,
    *,
    kind: str,
    transition_id: int,
    playtest_id: int,
    payload: msgspec.Struct,
    trace: Trace | None,
) -> JobStatusResponse:
    return await enqueue_job(
        conn,
        payload=payload,
        event_key=event_key(kind, transition_id),
        entity_key=f"playtest:{playtest_id}",
        trace=trace,
    )


async def record(
    conn: asyncpg.Connection,
    *,
    playtest_id: int,
    kind: str,
    actor_id: int | None,
    details: dict[str, Any],
    payload: Any,
    trace: Trace | None,
) -> JobStatusResponse:
    """Insert the transition row, then enqueue its job; `payload(transition_id)` builds it."""
    transition_id = await repository.insert_transition(conn, playtest_id, kind, actor_id, details)
    return await enqueue_transition(
        conn,
        kind=kind,
        transition_id=transition_id,
        playtest_id=playtest_id,
        payload=payload(transition_id),
        trace=trace,
    )
