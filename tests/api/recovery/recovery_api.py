"""Shared names of the recovery API suite: request bodies, the operator's reads over HTTP, a
worker simulated through the queue functions, and snapshots of every row a rejected request
must leave alone."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any
from uuid import UUID

import asyncpg
import httpx
from genji_queue.complete import queue_complete
from genji_queue.retry import queue_fail
from genji_queue.types import ErrorRecord, FailOutcome
from genji_sdk import ClaimToken

from tests.api.db_state import table_counts
from tests.support.harness import eventually
from tests.support.held_jobs import OPERATOR, UNCERTAIN, bind_alert_card, claim, held_job

MakeKey = Callable[..., Awaitable[str]]

GUILD_ID = 1_000_000_000_000_000_001
ALERTS_CHANNEL_ID = 1_000_000_000_000_000_002
ALERT_MESSAGE_ID = 1_000_000_000_000_000_003
JOBS = "/api/v3/internal/jobs"
ERROR: ErrorRecord = {"exception_type": "ApiError", "exception_message": "502 from the API"}


def retry_body(
    key: str, generation: int, *, actor: int = OPERATOR, context: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "expected_generation": generation,
        "idempotency_key": key,
        "actor_id": actor,
        "context": context or {"source": "cli"},
    }


def discord_context(
    interaction_id: int,
    *,
    guild_id: int = GUILD_ID,
    channel_id: int = ALERTS_CHANNEL_ID,
    message_id: int = ALERT_MESSAGE_ID,
) -> dict[str, Any]:
    return {
        "source": "discord",
        "guild_id": guild_id,
        "channel_id": channel_id,
        "message_id": message_id,
        "interaction_id": interaction_id,
    }


async def bind_alert(conn: asyncpg.Connection, job_id: UUID) -> None:
    """The held job's alert card, recorded as the alert delivery records it."""
    await bind_alert_card(conn, job_id, GUILD_ID, ALERTS_CHANNEL_ID, ALERT_MESSAGE_ID)


async def status_and_details(client: Any, job_id: UUID) -> tuple[dict[str, Any], dict[str, Any]]:
    """GET /internal/jobs/{id} and its details, each answered 200."""
    status = await client.get(f"{JOBS}/{job_id}")
    details = await client.get(f"{JOBS}/{job_id}/details")
    assert (status.status_code, details.status_code) == (200, 200), (status.text, details.text)
    return status.json(), details.json()


async def run_and_complete(conn: asyncpg.Connection) -> ClaimToken:
    """A worker's run that succeeds: claim the next ready job, complete it."""
    token = await claim(conn)
    assert await queue_complete(conn, token)
    return token


async def run_and_fail(conn: asyncpg.Connection, delays: list[timedelta]) -> FailOutcome:
    """A worker's run whose handler fails, under the retry schedule `delays`."""
    return await queue_fail(conn, await claim(conn), delays, ERROR)


# Rows a recovery action changes: its job, queue row and logs, effect progress, audit, alert.
_ROWS = {
    "jobs": "SELECT * FROM jobs ORDER BY id",
    "pgqueuer": "SELECT * FROM pgqueuer ORDER BY id",
    "pgqueuer_log": "SELECT * FROM pgqueuer_log ORDER BY id",
    "effect_receipts": "SELECT * FROM effect_receipts ORDER BY job_id, effect_key",
    "effect_bindings": "SELECT * FROM effect_bindings ORDER BY job_id, effect_key, destination",
    "job_actions": "SELECT * FROM job_actions ORDER BY id",
    "job_alerts": "SELECT * FROM job_alerts ORDER BY job_id",
}


async def snapshot(conn: asyncpg.Connection) -> dict[str, Any]:
    """Every row of the queue and recovery tables, and the row count of every business table."""
    state: dict[str, Any] = {"counts": await table_counts(conn)}
    for name, query in _ROWS.items():
        state[name] = [dict(row) for row in await conn.fetch(query)]
    return state


async def audit(conn: asyncpg.Connection, job_id: UUID) -> list[tuple[str, str, int | None]]:
    rows = await conn.fetch(
        "SELECT action, outcome, expected_generation FROM job_actions WHERE job_id = $1 "
        "ORDER BY id",
        job_id,
    )
    return [(r["action"], r["outcome"], r["expected_generation"]) for r in rows]


async def identity(conn: asyncpg.Connection, job_id: UUID) -> dict[str, Any]:
    """What a retry must keep: the job's public and queue identity, its event and payload."""
    row = await conn.fetchrow(
        "SELECT j.id, j.action, j.event_key, j.payload_hash, j.entity_key, j.event_seq, "
        "j.queue_job_id, q.payload, q.dedupe_key, q.entrypoint "
        "FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = $1",
        job_id,
    )
    assert row is not None
    return dict(row)


async def effects(conn: asyncpg.Connection, job_id: UUID) -> dict[str, Any]:
    """The job's receipts and bindings, as stored."""
    receipts = await conn.fetch(
        "SELECT effect_key, fingerprint, result::text, completed_at FROM effect_receipts "
        "WHERE job_id = $1 ORDER BY effect_key",
        job_id,
    )
    bindings = await conn.fetch(
        "SELECT effect_key, destination, state, channel_id, message_id FROM effect_bindings "
        "WHERE job_id = $1 ORDER BY effect_key, destination",
        job_id,
    )
    return {"receipts": [dict(r) for r in receipts], "bindings": [dict(b) for b in bindings]}


class LostResponse(httpx.TransportError):
    """The request was served and committed; its response never reached the client."""


class LoseResponses(httpx.AsyncBaseTransport):
    """A transport that delivers each request to the app, waits for the app's whole answer,
    then drops it: the client sees a broken connection after the server committed."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        await response.aread()
        await response.aclose()
        raise LostResponse("connection reset before the response arrived")


__all__ = ["OPERATOR", "UNCERTAIN", "eventually", "held_job"]


def client(app: Any, key: str, *, lose_responses: bool = False) -> httpx.AsyncClient:
    """A client of `app` served on this event loop; with `lose_responses`, every request is
    served to the end and its response dropped."""
    transport: httpx.AsyncBaseTransport = httpx.ASGITransport(app=app)
    if lose_responses:
        transport = LoseResponses(transport)
    return httpx.AsyncClient(
        transport=transport, base_url="http://testserver", headers={"X-API-KEY": key}
    )
