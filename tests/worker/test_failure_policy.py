"""The failure policy, run by the real supervisor in this process against real PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta

import asyncpg
import msgspec
import pytest
from genji_sdk import REGISTRY, HandlerCoverageError, JobContext
from genji_sdk.failures import ConfigurationFailure, DependencyUnavailable, RateLimited
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor

from tests.support.queue_helpers import XP_EVENT, enqueue_xp
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue

FAST = WorkerSettings(
    polling_fallback=timedelta(seconds=0.2),
    drain_timeout=timedelta(seconds=1),
    reconnect_initial=timedelta(seconds=0.1),
    reconnect_max=timedelta(seconds=0.5),
    command_timeout=timedelta(seconds=1),
    retry_delays=(timedelta(milliseconds=50),),
)

Handler = Callable[[msgspec.Struct, JobContext], Awaitable[None]]


async def _noop(payload: msgspec.Struct, context: JobContext) -> None:
    return None


@asynccontextmanager
async def running(
    db: Database, xp_handler: Handler, settings: WorkerSettings = FAST
) -> AsyncIterator[QueueSupervisor]:
    handlers = {spec.name: _noop for spec in REGISTRY.owned_by("bot")}
    handlers[XP_EVENT] = xp_handler
    supervisor = QueueSupervisor(
        owner="bot",
        handlers=handlers,
        connect=lambda: asyncpg.connect(db.worker_dsn),
        settings=settings,
    )
    task = asyncio.create_task(supervisor.run())
    try:
        yield supervisor
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)


async def _job(conn: asyncpg.Connection) -> asyncpg.Record:
    row = await conn.fetchrow(
        "SELECT j.handler_failures, j.error_code, q.status::text AS status, q.attempts, "
        "q.execute_after - now() AS wait FROM jobs j LEFT JOIN pgqueuer q ON q.id = j.queue_job_id"
    )
    assert row is not None
    return row


async def _until(probe: Callable[[], Awaitable[bool]], seconds: float = 10) -> None:
    async with asyncio.timeout(seconds):
        while True:
            if await probe():
                return
            await asyncio.sleep(0.02)


def test_startup_rejects_handlers_for_the_other_process_or_unknown_events(db: Database) -> None:
    handlers = {spec.name: _noop for spec in REGISTRY.owned_by("bot")}

    def build(extra: dict[str, Handler]) -> None:
        QueueSupervisor(
            owner="bot", handlers={**handlers, **extra}, connect=lambda: asyncpg.connect(db.dsn)
        )

    with pytest.raises(HandlerCoverageError, match="owned by another process"):
        build({"completion.ocr.requested": _noop})
    with pytest.raises(HandlerCoverageError, match="unregistered"):
        build({"api.nope": _noop})
    with pytest.raises(HandlerCoverageError, match="missing"):
        QueueSupervisor(
            owner="bot", handlers={XP_EVENT: _noop}, connect=lambda: asyncpg.connect(db.dsn)
        )


async def test_rate_limit_defers_for_exactly_retry_after_without_budget(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    calls: list[int] = []

    async def limited(payload: msgspec.Struct, context: JobContext) -> None:
        calls.append(context.attempt)
        raise RateLimited(30)

    await enqueue_xp(conn, "xp:1")
    async with running(db, limited):
        await _until(lambda: _has(calls))
        await _until(lambda: _status_is(conn, "queued"))
    row = await _job(conn)
    assert row["handler_failures"] == 0 and row["attempts"] == 1
    assert timedelta(seconds=28) < row["wait"] <= timedelta(seconds=30)


async def test_dependency_outage_pauses_claims_logs_once_and_spares_the_budget(
    db: Database, connect: Connect, caplog: pytest.LogCaptureFixture
) -> None:
    conn = await connect()
    seen: list[str] = []

    async def outage(payload: msgspec.Struct, context: JobContext) -> None:
        seen.append(context.event_key)
        raise DependencyUnavailable("api", "connection refused")

    for n in range(3):
        await enqueue_xp(conn, f"xp:{n}", grant_id=n, user_id=n)
    settings = WorkerSettings(**{**FAST.__dict__, "reconnect_initial": timedelta(seconds=2)})
    with caplog.at_level(logging.INFO, logger="genji.queue"):
        async with running(db, outage, settings) as supervisor:
            await _until(lambda: _has(seen))
            await asyncio.sleep(0.6)  # claims are paused: the other jobs stay unclaimed
            assert len(seen) == 1
            assert supervisor.outages.down == {"api": pytest.approx(2.0)}
    assert await conn.fetchval("SELECT sum(handler_failures) FROM jobs") == 0
    assert sum("api unavailable" in r.getMessage() for r in caplog.records) == 1


async def test_configuration_failure_is_one_actionable_error_not_a_loop(
    db: Database, connect: Connect, caplog: pytest.LogCaptureFixture
) -> None:
    conn = await connect()
    attempts: list[int] = []

    async def misconfigured(payload: msgspec.Struct, context: JobContext) -> None:
        attempts.append(1)
        raise ConfigurationFailure("bot token rejected")

    await enqueue_xp(conn, "xp:1")
    settings = WorkerSettings(**{**FAST.__dict__, "reconnect_max": timedelta(seconds=5)})
    with caplog.at_level(logging.INFO, logger="genji.queue"):
        async with running(db, misconfigured, settings):
            await _until(lambda: _has(attempts))
            await asyncio.sleep(1.0)
    assert len(attempts) == 1  # backed off to the longest reconnect delay, no rapid retries
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "misconfigured" in errors[0].getMessage()
    assert (await _job(conn))["handler_failures"] == 0


async def test_a_timed_out_queue_command_reconnects_and_is_not_charged(
    db: Database, connect: Connect
) -> None:
    conn, blocker = await connect(), await connect()
    started: list[str] = []
    release = asyncio.Event()

    async def waits(payload: msgspec.Struct, context: JobContext) -> None:
        started.append(context.event_key)
        await release.wait()

    job = await enqueue_xp(conn, "xp:1")
    async with running(db, waits):
        await _until(lambda: _has(started))
        lock = blocker.transaction()
        await lock.start()
        # Block every queue write so the completion misses its deadline.
        await blocker.execute("LOCK TABLE pgqueuer IN SHARE ROW EXCLUSIVE MODE")
        release.set()
        await asyncio.sleep(FAST.command_timeout.total_seconds() + 0.5)
        await lock.rollback()
        await _until(lambda: _status_is(conn, None), 15)
    assert await conn.fetchval("SELECT status FROM job_public_status($1)", job.id) == "succeeded"
    assert await conn.fetchval("SELECT handler_failures FROM jobs") == 0


async def test_handler_failures_use_the_schedule_then_hold(db: Database, connect: Connect) -> None:
    conn = await connect()

    async def broken(payload: msgspec.Struct, context: JobContext) -> None:
        raise ValueError("token=abc123 is wrong for postgresql://bot:hunter2@db/genji")

    await enqueue_xp(conn, "xp:1")
    async with running(db, broken):
        await _until(lambda: _status_is(conn, "failed"))
    row = await conn.fetchrow("SELECT handler_failures, error_code, error_msg FROM jobs")
    assert row is not None and (row["handler_failures"], row["error_code"]) == (2, "ValueError")
    assert "abc123" not in row["error_msg"] and "hunter2" not in row["error_msg"]


async def _has(items: list[object]) -> bool:
    return bool(items)


async def _status_is(conn: asyncpg.Connection, status: str | None) -> bool:
    return await conn.fetchval("SELECT status::text FROM pgqueuer") == status
