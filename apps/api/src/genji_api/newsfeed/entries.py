"""Store a newsfeed entry and enqueue its delivery, inside the caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg
import msgspec
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.newsfeed import NewsfeedPayload
from genji_sdk.payloads import NewsfeedDispatchEvent

from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import JobRequest, enqueue_request


@dataclass(frozen=True)
class NewsfeedCreated:
    newsfeed_id: int
    job: JobStatusResponse


async def store_newsfeed(conn: asyncpg.Connection, entry: NewsfeedPayload) -> int:
    """The new entry's id; its delivery job is newsfeed_job's to enqueue."""
    newsfeed_id: int = await conn.fetchval(
        "INSERT INTO public.newsfeed (payload) VALUES ($1::jsonb) RETURNING id",
        msgspec.json.encode(entry).decode(),
    )
    return newsfeed_id


def newsfeed_job(newsfeed_id: int) -> JobRequest:
    """The api.newsfeed.create job that delivers entry `newsfeed_id`."""
    return JobRequest(
        payload=NewsfeedDispatchEvent(newsfeed_id=newsfeed_id),
        event_key=f"newsfeed:create:{newsfeed_id}",
        entity_key=None,
    )


async def create_newsfeed(
    conn: asyncpg.Connection, entry: NewsfeedPayload, *, trace: Trace | None = None
) -> NewsfeedCreated:
    newsfeed_id = await store_newsfeed(conn, entry)
    job = await enqueue_request(conn, newsfeed_job(newsfeed_id), trace=trace)
    return NewsfeedCreated(newsfeed_id=newsfeed_id, job=job)
