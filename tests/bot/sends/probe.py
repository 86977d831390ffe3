"""A test-only consumer that drives one send through the real worker and the API's bindings.

It stands in for the consumer of PROBE_EVENT: it sends one message to a channel derived from
the payload (`SEND`), tolerates a refused destination as a notification handler does, then
reaches one more effect boundary (`FOLLOWUP`) where a test can make the job fail once so it is
replayed. Tests steer both with recorder commands.
"""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID, uuid4

import asyncpg
from genji_api.queue.enqueue import enqueue_job
from genji_bot.consumers import Consumer, JobRun
from genji_bot.effects.port import Channel, Forbidden, Outgoing, destination_of
from genji_sdk.payloads import NewsfeedDispatchEvent

log = logging.getLogger("genji.tests.probe")

PROBE_EVENT = "api.newsfeed.create"
SEND = "announce:probe"
FOLLOWUP = "followup:probe"
_CHANNELS = 10**18 + 10**6


def probe_target(newsfeed_id: int) -> Channel:
    return Channel(_CHANNELS + newsfeed_id)


def probe_destination(newsfeed_id: int) -> str:
    return destination_of(probe_target(newsfeed_id))


def probe_message(newsfeed_id: int) -> Outgoing:
    return Outgoing(content=f"Entry {newsfeed_id} is out.")


async def probe(payload: NewsfeedDispatchEvent, job: JobRun) -> None:
    target = probe_target(payload.newsfeed_id)
    try:
        await job.send(SEND, target, probe_message(payload.newsfeed_id))
    except Forbidden as error:
        log.info("job %s: %s", job.context.job_id, error)
    await job.step(FOLLOWUP)
    await job.step(FOLLOWUP, "after")


PROBE: dict[str, Consumer] = {PROBE_EVENT: probe}


def command(event_effect: str) -> str:
    return f"{PROBE_EVENT}:{event_effect}"


async def enqueue_probe(owner: asyncpg.Connection, newsfeed_id: int) -> UUID:
    """One probe job, through the real enqueue path."""
    async with owner.transaction():
        job = await enqueue_job(
            owner,
            event_name=PROBE_EVENT,
            payload=NewsfeedDispatchEvent(newsfeed_id=newsfeed_id),
            event_key=f"newsfeed:create:probe:{uuid4()}",
            entity_key=f"newsfeed:{newsfeed_id}",
        )
    return job.id


async def binding(owner: asyncpg.Connection, job_id: UUID) -> asyncpg.Record | None:
    row: Any = await owner.fetchrow(
        "SELECT state, channel_id, message_id, detail::text AS detail FROM effect_bindings "
        "WHERE job_id = $1 AND effect_key = $2",
        job_id,
        SEND,
    )
    return row


async def held_error(owner: asyncpg.Connection, job_id: UUID) -> asyncpg.Record:
    row: Any = await owner.fetchrow(
        "SELECT error_code, error_msg, handler_failures FROM jobs WHERE id = $1", job_id
    )
    return row
