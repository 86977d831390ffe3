"""Rows the guide, newsfeed, notification and XP tests need, and reads of what they wrote."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid4

import asyncpg
from genji_api.queue.enqueue import enqueue_job
from genji_sdk import ClaimToken
from genji_sdk.effect_headers import effect_headers
from genji_sdk.payloads import VerificationChangedEvent

from . import seed
from .queue_helpers import claim_next, register_worker


@dataclass(frozen=True)
class GuideSetup:
    code: str
    user_id: int
    url: str


async def guide_setup(
    conn: asyncpg.Connection, *, official: bool = True, archived: bool = False
) -> GuideSetup:
    _, code = await seed.game_map(conn, official=official, archived=archived)
    user_id = await seed.user(conn)
    return GuideSetup(code=code, user_id=user_id, url=f"https://youtu.be/{code.lower()}")


async def counts(conn: asyncpg.Connection) -> dict[str, int]:
    """Guides, XP grants, newsfeed entries and jobs per event, as committed."""
    totals = {
        "guides": await conn.fetchval("SELECT count(*) FROM maps.guides"),
        "xp_grants": await conn.fetchval("SELECT count(*) FROM lootbox.xp_grants"),
        "newsfeed": await conn.fetchval("SELECT count(*) FROM public.newsfeed"),
        "notifications": await conn.fetchval("SELECT count(*) FROM notifications.events"),
    }
    for row in await conn.fetch("SELECT action, count(*) AS n FROM jobs GROUP BY action"):
        totals[row["action"]] = row["n"]
    return totals


async def envelope_of(conn: asyncpg.Connection, job_id: UUID | str) -> dict[str, Any]:
    """The queue row's stored envelope (payload and trace), decoded."""
    raw: str = await conn.fetchval(
        "SELECT convert_from(q.payload, 'UTF8') FROM pgqueuer q JOIN jobs j "
        "ON j.queue_job_id = q.id WHERE j.id = $1",
        UUID(str(job_id)),
    )
    decoded: dict[str, Any] = json.loads(raw)
    return decoded


VERDICT_EVENT = "api.completion.verification"


@dataclass(frozen=True)
class ClaimedJob:
    """A bot job claimed the way a worker claims it, for requests sent as its effects: a
    completion verdict, whose handler requests XP, newsfeed and notification effects."""

    job_id: UUID
    claim: ClaimToken

    def headers(self, effect_key: str) -> dict[str, str]:
        return effect_headers(self.job_id, self.claim, effect_key)


async def claimed_job(conn: asyncpg.Connection, user_id: int) -> ClaimedJob:
    async with conn.transaction():
        job = await enqueue_job(
            conn,
            event_name=VERDICT_EVENT,
            payload=VerificationChangedEvent(
                completion_id=user_id % 1_000_000,
                transition_id=user_id % 1_000_000,
                verified=True,
                verified_by=user_id,
            ),
            event_key=f"completion:verification:test:{uuid4()}",
            entity_key=f"completion:test:{uuid4()}",
        )
    manager = await register_worker(conn, uuid4())
    claimed = await claim_next(conn, manager, VERDICT_EVENT)
    assert claimed is not None and claimed.queue_manager_id is not None
    return ClaimedJob(job.id, ClaimToken(claimed.id, claimed.queue_manager_id, claimed.updated))


async def expire_claim(conn: asyncpg.Connection, job: ClaimedJob) -> None:
    """Another worker takes the job over after its claim's heartbeat went stale."""
    await conn.execute(
        "UPDATE pgqueuer SET heartbeat = now() - interval '10 minutes' WHERE id = $1",
        job.claim.queue_job_id,
    )
    taken = await claim_next(conn, await register_worker(conn, uuid4()), VERDICT_EVENT)
    assert taken is not None and taken.id == job.claim.queue_job_id


async def until(probe: Callable[[], Awaitable[bool]], deadline: float, what: str) -> None:
    """Poll observable state until `probe` holds or the deadline passes."""
    end = time.monotonic() + deadline
    while not await probe():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {deadline}s waiting for {what}")
        await asyncio.sleep(0.02)
