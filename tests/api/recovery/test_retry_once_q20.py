"""Q20: concurrent retries with different keys, duplicate requests with one key, and a retry
whose response was lost after it committed: exactly one audited requeue, one generation
increment, the same job, event and payload, the receipts kept, a fresh failure budget, and
every later request with the key resolves the recorded result."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

import asyncpg
import httpx
import pytest
from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.recovery.service import retry_job
from genji_sdk.recovery import OperatorContext, RetryRequest
from litestar import Litestar

from tests.support.lock_waits import calls_waiting_on_locks
from tests.support.testdb import Connect

from .recovery_api import (
    JOBS,
    OPERATOR,
    LostResponse,
    MakeKey,
    audit,
    bind_alert,
    client,
    discord_context,
    effects,
    eventually,
    held_job,
    identity,
    retry_body,
    run_and_complete,
    status_and_details,
)
from .recovery_fixtures import api_settings_fixture, asgi_app_fixture, service_db_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.queue


async def _held(owner: asyncpg.Connection) -> tuple[UUID, dict[str, Any], dict[str, Any]]:
    job_id = await held_job(owner, "xp:q20")
    await bind_alert(owner, job_id)
    return job_id, await identity(owner, job_id), await effects(owner, job_id)


async def _retried_once(
    owner: asyncpg.Connection,
    job_id: UUID,
    before: dict[str, Any],
    kept: dict[str, Any],
    reader: httpx.AsyncClient,
) -> None:
    """One accepted retry happened: generation 1, identity and effects as before, a fresh
    budget, the queue row ready again."""
    assert await audit(owner, job_id) == [("retry", "accepted", 0)]
    assert await identity(owner, job_id) == before
    assert await effects(owner, job_id) == kept
    assert await owner.fetchval("SELECT count(*) FROM jobs") == 1
    row = await owner.fetchrow(
        "SELECT q.status, q.attempts FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id "
        "WHERE j.id = $1",
        job_id,
    )
    assert (row["status"], row["attempts"]) == ("queued", 0)
    _, details = await status_and_details(reader, job_id)
    assert (details["state"], details["retry_generation"]) == ("pending", 1)
    assert (details["handler_failures"], details["failure_budget"]) == (0, 5)
    assert [(r["effect_key"], r["completed"]) for r in details["receipts"]] == [("xp:grant", True)]


async def _behind_the_queue_lock(
    connect: Connect, job_id: UUID, racers: list[Any], function: str = "recovery_retry"
) -> list[Any]:
    """Start every racer while a third session holds the job's queue row lock; release it only
    once all of them wait (the first on that lock, the others on the job row it took first),
    so each finds the held job locked by another request."""
    holder, observer = await connect(), await connect()
    lock = holder.transaction()
    await lock.start()
    await holder.execute(
        "SELECT 1 FROM pgqueuer WHERE id = (SELECT queue_job_id FROM jobs WHERE id = $1) "
        "FOR UPDATE",
        job_id,
    )
    tasks = [asyncio.create_task(racer) for racer in racers]

    async def all_waiting() -> bool:
        return await calls_waiting_on_locks(observer, function) == len(racers)

    await eventually(all_waiting, deadline=10, what="every retry waiting on a lock")
    assert not any(task.done() for task in tasks)
    await lock.commit()
    return list(await asyncio.gather(*tasks))


async def test_q20_concurrent_retries_from_a_button_and_the_cli_requeue_once(
    asgi_app: Litestar,
    service_db: Database,
    owner: asyncpg.Connection,
    connect: Connect,
    make_key: MakeKey,
) -> None:
    job_id, before, kept = await _held(owner)
    async with client(asgi_app, await make_key(*scopes.BOT, username="bot")) as bot:
        button = bot.post(
            f"{JOBS}/{job_id}/retry",
            json=retry_body("7001", 0, context=discord_context(7001)),
        )
        cli = retry_job(
            service_db,
            asgi_app.state.settings,
            job_id,
            RetryRequest(
                expected_generation=0,
                idempotency_key="cli-1",
                actor_id=OPERATOR,
                context=OperatorContext(source="cli"),
            ),
        )
        answered, served = await _behind_the_queue_lock(connect, job_id, [button, cli])
        assert answered.status_code == 200, answered.text
        outcomes = sorted([answered.json()["outcome"], served.outcome])
        assert outcomes == ["accepted", "stale_generation"]
        await _retried_once(owner, job_id, before, kept, bot)


async def test_q20_duplicate_requests_with_one_key_requeue_once(
    asgi_app: Litestar, owner: asyncpg.Connection, connect: Connect, make_key: MakeKey
) -> None:
    job_id, before, kept = await _held(owner)
    key = await make_key(scopes.JOBS_MANAGE, scopes.JOBS_READ, username="operator")
    async with client(asgi_app, key) as first, client(asgi_app, key) as second:
        same = retry_body("click-1", 0)
        answers = await _behind_the_queue_lock(
            connect,
            job_id,
            [c.post(f"{JOBS}/{job_id}/retry", json=same) for c in (first, second)],
        )
        bodies = sorted((a.json() for a in answers), key=lambda b: b["outcome"])
        assert [b["outcome"] for b in bodies] == ["accepted", "duplicate"]
        accepted, duplicate = bodies
        assert (duplicate["recorded_outcome"], duplicate["action_id"]) == (
            "accepted",
            accepted["action_id"],
        )
        again = await first.post(f"{JOBS}/{job_id}/retry", json=same)
        assert (again.json()["outcome"], again.json()["action_id"]) == (
            "duplicate",
            accepted["action_id"],
        )
        await _retried_once(owner, job_id, before, kept, first)


async def test_q20_a_lost_response_is_resolved_by_repeating_its_key(
    asgi_app: Litestar, owner: asyncpg.Connection, make_key: MakeKey
) -> None:
    job_id, before, kept = await _held(owner)
    key = await make_key(scopes.JOBS_MANAGE, scopes.JOBS_READ, username="operator")
    request = retry_body("lost-1", 0)
    async with client(asgi_app, key, lose_responses=True) as unlucky:
        with pytest.raises(LostResponse):
            await unlucky.post(f"{JOBS}/{job_id}/retry", json=request)
    async with client(asgi_app, key) as operator:
        repeated = (await operator.post(f"{JOBS}/{job_id}/retry", json=request)).json()
        assert (
            repeated["outcome"],
            repeated["recorded_outcome"],
            repeated["retry_generation"],
        ) == (
            "duplicate",
            "accepted",
            1,
        )
        await _retried_once(owner, job_id, before, kept, operator)
        # The durable result stays the answer after the job has run.
        await run_and_complete(owner)
        later = (await operator.post(f"{JOBS}/{job_id}/retry", json=request)).json()
        assert (later["outcome"], later["recorded_outcome"], later["state"]) == (
            "duplicate",
            "accepted",
            "succeeded",
        )
        assert later["action_id"] == repeated["action_id"]
    assert await audit(owner, job_id) == [("retry", "accepted", 0)]
