"""Store a newsfeed entry and enqueue its delivery, inside the caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg
import msgspec
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.newsfeed import NewsfeedPayload
from genji_sdk.payloads import NewsfeedDispatchEvent

from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_job


@dataclass(frozen=True)
class NewsfeedCreated:
    newsfeed_id: int
    job: JobStatusResponse


async def create_newsfeed(
    conn: asyncpg.Connection, entry: NewsfeedPayload, *, trace: Trace | None = None
) -> NewsfeedCreated:
    newsfeed_id: int = await conn.fetchval(
        "INSERT INTO public.newsfeed (payload) VALUES ($1::jsonb) RETURNING id",
        msgspec.json.encode(entry).decode(),
    )
    job = await enqueue_job(
        conn,
        payload=NewsfeedDispatchEvent(newsfeed_id=newsfeed_id),
        event_key=f"newsfeed:create:{newsfeed_id}",
        entity_key=None,
        trace=trace,
    )
    return NewsfeedCreated(newsfeed_id=newsfeed_id, job=job)
