"""Claims of a lost queue connection go back to the queue as soon as a new connection is up,
those the worker knew of and those whose reply the connection lost; a connection whose listener
stopped hearing is wound down like a stop and replaced."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import timedelta
from uuid import UUID

import asyncpg
import msgspec
import pytest
from genji_queue.claim import queue_claim
from genji_queue.enqueue import enqueue_job_raw
from genji_sdk import JobContext
from genji_worker.executor import Handler
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor

from tests.support.harness import eventually
from tests.support.queue_helpers import (
    GATE_WAIT,
    XP_EVENT,
    bot_handlers,
    does_nothing,
    enqueue_xp,
    sample_json,
)
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue

QUEUE_BACKEND = "genji-test-lost-connection"
# The database default stale threshold (60 s) is far past the test's deadline: only the release
# on reconnect can bring the claim back in time.
SETTINGS = WorkerSettings(
    polling_fallback=timedelta(seconds=0.2),
    reconnect_initial=timedelta(seconds=0.1),
    reconnect_max=timedelta(seconds=0.5),
    command_timeout=timedelta(seconds=2),
    retry_delays=(timedelta(seconds=30),),
)


def _supervisor(db: Database, xp: Handler) -> QueueSupervisor:
    """The bot's supervisor on a queue connection the test can find and end by its name."""
    return QueueSupervisor(
        owner="bot",
        handlers=bot_handlers(xp),
        connect=lambda: asyncpg.connect(
            db.worker_dsn, server_settings={"application_name": QUEUE_BACKEND}
        ),
        settings=SETTINGS,
    )


async def _registered(
    conn: asyncpg.Connection, supervisor: QueueSupervisor, previous: UUID | None
) -> UUID:
    """The supervisor's queue manager, once it is another than `previous` and registered."""

    async def registered() -> UUID | None:
        manager = supervisor.manager_id
        if manager is None or manager == previous:
            return None
        found = await conn.fetchval(
            "SELECT manager_id FROM queue_workers WHERE manager_id = $1", manager
        )
        return manager if found else None

    return await eventually(registered, deadline=40, what="the worker to register")


async def _waiting_for_a_lock(watcher: asyncpg.Connection) -> int:
    """The pid of the worker's queue backend once it waits for a lock. Read outside any
    transaction, which would keep a single snapshot of pg_stat_activity."""

    async def waiting() -> int | None:
        pid: int | None = await watcher.fetchval(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1"
            " AND wait_event_type = 'Lock'",
            QUEUE_BACKEND,
        )
        return pid

    return await eventually(waiting, deadline=10, what="the queue connection to wait for a lock")


async def _release_reasons(conn: asyncpg.Connection, queue_job_id: int) -> list[str]:
    rows = await conn.fetch(
        "SELECT traceback->>'exception_message' AS reason FROM pgqueuer_log"
        " WHERE job_id = $1 AND status = 'queued' AND traceback IS NOT NULL ORDER BY id",
        queue_job_id,
    )
    return [row["reason"] for row in rows]


class SucceedsOnceLocked:
    """A handler that succeeds once the test holds its job's row, so that the completion that
    follows waits for that row (completion_blocked)."""

    def __init__(self) -> None:
        self.attempts: list[int] = []
        self.running, self.locked = asyncio.Event(), asyncio.Event()

    async def __call__(self, payload: msgspec.Struct, context: JobContext) -> None:
        self.attempts.append(context.attempt)
        self.running.set()
        await self.locked.wait()


@contextlib.asynccontextmanager
async def _completion_blocked(
    locker: asyncpg.Connection,
    watcher: asyncpg.Connection,
    queue_job_id: int,
    handler: SucceedsOnceLocked,
) -> AsyncIterator[int]:
    """Hold the job's row in a transaction of `locker` while the handler succeeds; yields the
    pid of the queue backend once its completion waits for the row."""
    await asyncio.wait_for(handler.running.wait(), 10)
    async with locker.transaction():
        await locker.execute("SELECT 1 FROM pgqueuer WHERE id = $1 FOR UPDATE", queue_job_id)
        handler.locked.set()
        yield await _waiting_for_a_lock(watcher)


async def _until_succeeded(conn: asyncpg.Connection, job_id: UUID, seconds: float) -> None:
    async with asyncio.timeout(seconds):
        status = None
        while status != "succeeded":
            await asyncio.sleep(0.05)
            status = await conn.fetchval("SELECT status FROM job_public_status($1)", job_id)


async def test_a_failure_write_that_meets_the_dead_connection_is_released_on_reconnect(
    db: Database, connect: Connect
) -> None:
    conn, killer = await connect(), await connect("admin")
    attempts: list[int] = []

    async def fails_as_the_connection_dies(payload: msgspec.Struct, context: JobContext) -> None:
        attempts.append(context.attempt)
        if len(attempts) == 1:
            # The queue connection dies between the handler and the executor's own write
            # (queue_fail), before the supervisor has noticed.
            await killer.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
                QUEUE_BACKEND,
            )
            raise ValueError("handler failed")

    supervisor = _supervisor(db, fails_as_the_connection_dies)
    job = await enqueue_xp(conn, "xp:lost")
    task = asyncio.create_task(supervisor.run())
    try:
        await _until_succeeded(conn, job.id, 10)
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)

    assert attempts == [1, 1]  # released, not failed: the second run is the same attempt
    row = await conn.fetchrow(
        "SELECT handler_failures, queue_job_id FROM jobs WHERE id = $1", job.id
    )
    assert row is not None and row["handler_failures"] == 0
    assert await _release_reasons(conn, row["queue_job_id"]) == ["worker lost its queue connection"]


async def test_a_success_the_lost_connection_never_wrote_is_completed_on_reconnect(
    db: Database, connect: Connect
) -> None:
    conn, killer, locker = await connect(), await connect("admin"), await connect("admin")
    handler = SucceedsOnceLocked()
    supervisor = _supervisor(db, handler)
    job = await enqueue_xp(conn, "xp:unwritten")
    queue_job_id = await conn.fetchval("SELECT queue_job_id FROM jobs WHERE id = $1", job.id)
    task = asyncio.create_task(supervisor.run())
    try:
        # The worker's connection dies under the waiting completion.
        async with _completion_blocked(locker, killer, queue_job_id, handler) as pid:
            assert await killer.fetchval("SELECT pg_terminate_backend($1, 5000)", pid)
        await _until_succeeded(conn, job.id, 10)
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)

    assert handler.attempts == [1]
    assert await _release_reasons(conn, queue_job_id) == []


async def test_a_claim_whose_reply_was_lost_is_given_back_on_reconnect(
    db: Database, connect: Connect
) -> None:
    conn, killer = await connect(), await connect("admin")
    supervisor = _supervisor(db, does_nothing)
    task = asyncio.create_task(supervisor.run())
    try:
        manager = await _registered(conn, supervisor, previous=None)
        # A claim made under the worker's manager that the worker never heard of: what a
        # claim committed after its reply was lost with the connection leaves behind.
        async with conn.transaction():
            job = await enqueue_job_raw(
                conn,
                event_name=XP_EVENT,
                payload_json=sample_json(XP_EVENT),
                event_key="xp:reply-lost",
            )
            (lost,) = (await queue_claim(conn, manager, [XP_EVENT], 1, None, GATE_WAIT)).jobs
        await killer.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
            QUEUE_BACKEND,
        )
        await _until_succeeded(conn, job.job.id, 10)
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)

    assert await _release_reasons(conn, lost.row["id"]) == ["its worker stopped"]


async def test_a_connection_whose_listener_fails_its_health_check_is_wound_down_and_replaced(
    db: Database, connect: Connect, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="genji.queue")
    conn = await connect()
    attempts: list[int] = []
    running, finish = asyncio.Event(), asyncio.Event()

    async def runs_until_told(payload: msgspec.Struct, context: JobContext) -> None:
        attempts.append(context.attempt)
        running.set()
        await finish.wait()

    supervisor = _supervisor(db, runs_until_told)
    task = asyncio.create_task(supervisor.run())
    try:
        first = await _registered(conn, supervisor, previous=None)
        job = await enqueue_xp(conn, "xp:deaf")
        await asyncio.wait_for(running.wait(), 10)
        # The session stays up but hears no more notifications, PGQueuer's health check's
        # included (one every 10 s, each given 10 s to come back).
        assert supervisor.outages.queries is not None
        await supervisor.outages.queries.driver.execute("UNLISTEN *")

        async def listener_failed() -> bool:
            return any("queue listener failed" in r.getMessage() for r in caplog.records)

        await eventually(listener_failed, deadline=40, what="the health check to fail")
        # The running execution is not cut short: it finishes and writes its result.
        finish.set()
        await _until_succeeded(conn, job.id, 10)
        await _registered(conn, supervisor, previous=first)
        assert not task.done()
        assert (
            await conn.fetchval("SELECT count(*) FROM queue_workers WHERE manager_id = $1", first)
            == 0
        )
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)

    assert attempts == [1]


async def test_a_manager_whose_successor_was_lost_before_taking_over_is_stopped_by_the_next(
    db: Database, connect: Connect
) -> None:
    conn, killer, locker = await connect(), await connect("admin"), await connect("admin")
    attempts: list[int] = []
    running = asyncio.Event()

    async def runs_until_cancelled_once(payload: msgspec.Struct, context: JobContext) -> None:
        attempts.append(context.attempt)
        if len(attempts) == 1:
            running.set()
            await asyncio.Event().wait()

    supervisor = _supervisor(db, runs_until_cancelled_once)
    job = await enqueue_xp(conn, "xp:twice-lost")
    queue_job_id = await conn.fetchval("SELECT queue_job_id FROM jobs WHERE id = $1", job.id)
    task = asyncio.create_task(supervisor.run())
    try:
        first = await _registered(conn, supervisor, previous=None)
        await asyncio.wait_for(running.wait(), 10)
        # The first connection dies; the next one, giving back the job, waits for its row and
        # dies too, before it has stopped the first manager.
        async with locker.transaction():
            await locker.execute("SELECT 1 FROM pgqueuer WHERE id = $1 FOR UPDATE", queue_job_id)
            [lost] = await killer.fetch(
                "SELECT pid FROM pg_stat_activity WHERE application_name = $1", QUEUE_BACKEND
            )
            assert await killer.fetchval("SELECT pg_terminate_backend($1, 5000)", lost["pid"])
            pid = await _waiting_for_a_lock(killer)
            assert await killer.fetchval("SELECT pg_terminate_backend($1, 5000)", pid)
        await _registered(conn, supervisor, previous=first)
        await _until_succeeded(conn, job.id, 10)
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)

    assert attempts == [1, 1]
    assert (
        await conn.fetchval("SELECT count(*) FROM queue_workers WHERE manager_id = $1", first) == 0
    )


async def test_a_stop_while_the_connection_is_lost_still_gives_back_what_it_held(
    db: Database, connect: Connect
) -> None:
    conn, killer = await connect(), await connect("admin")
    running, refused = asyncio.Event(), asyncio.Event()
    database_down = False

    async def runs_until_cancelled(payload: msgspec.Struct, context: JobContext) -> None:
        running.set()
        await asyncio.Event().wait()

    async def connect_unless_down() -> asyncpg.Connection:
        if database_down:
            refused.set()
            raise ConnectionRefusedError("the queue database is down")
        return await asyncpg.connect(
            db.worker_dsn, server_settings={"application_name": QUEUE_BACKEND}
        )

    supervisor = QueueSupervisor(
        owner="bot",
        handlers=bot_handlers(runs_until_cancelled),
        connect=connect_unless_down,
        settings=SETTINGS,
    )
    job = await enqueue_xp(conn, "xp:stopped-while-down")
    task = asyncio.create_task(supervisor.run())
    try:
        first = await _registered(conn, supervisor, previous=None)
        await asyncio.wait_for(running.wait(), 10)
        database_down = True
        await killer.execute(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
            " WHERE application_name = $1",
            QUEUE_BACKEND,
        )
        await asyncio.wait_for(refused.wait(), 10)
        # The stop comes during the backoff; the database is back by the time it is carried out.
        database_down = False
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)

    row = await conn.fetchrow(
        "SELECT q.status::text AS status, j.queue_job_id FROM jobs j"
        " JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = $1",
        job.id,
    )
    assert row is not None and row["status"] == "queued"
    assert await _release_reasons(conn, row["queue_job_id"]) == ["worker lost its queue connection"]
    assert (
        await conn.fetchval("SELECT count(*) FROM queue_workers WHERE manager_id = $1", first) == 0
    )


async def test_a_success_a_stop_could_not_write_before_its_connection_died_is_completed(
    db: Database, connect: Connect
) -> None:
    conn, killer, locker = await connect(), await connect("admin"), await connect("admin")
    handler = SucceedsOnceLocked()
    supervisor = _supervisor(db, handler)
    job = await enqueue_xp(conn, "xp:stopped-unwritten")
    queue_job_id = await conn.fetchval("SELECT queue_job_id FROM jobs WHERE id = $1", job.id)
    task = asyncio.create_task(supervisor.run())
    try:
        # The stop drains while the completion waits, and the connection dies under it: the
        # stop completes the job on a new connection before it exits.
        async with _completion_blocked(locker, killer, queue_job_id, handler) as pid:
            supervisor.request_stop()
            assert await killer.fetchval("SELECT pg_terminate_backend($1, 5000)", pid)
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)

    assert handler.attempts == [1]
    status = await conn.fetchval("SELECT status FROM job_public_status($1)", job.id)
    assert status == "succeeded"


async def test_a_job_that_finishes_while_a_stop_drains_on_a_lost_connection_is_completed(
    db: Database, connect: Connect, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="genji.queue")
    conn, killer = await connect(), await connect("admin")
    attempts: list[int] = []
    running, finish = asyncio.Event(), asyncio.Event()

    async def finishes_when_told(payload: msgspec.Struct, context: JobContext) -> None:
        attempts.append(context.attempt)
        running.set()
        await finish.wait()

    supervisor = _supervisor(db, finishes_when_told)
    job = await enqueue_xp(conn, "xp:drained-lost")
    task = asyncio.create_task(supervisor.run())
    try:
        await asyncio.wait_for(running.wait(), 10)
        supervisor.request_stop()

        async def draining() -> bool:
            return any("claiming stopped" in r.getMessage() for r in caplog.records)

        await eventually(draining, deadline=10, what="the drain to begin")
        await killer.execute(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
            " WHERE application_name = $1",
            QUEUE_BACKEND,
        )
        # The handler still finishes within the drain: the stop completes its job on a new
        # connection instead of cutting it short to run it again.
        finish.set()
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 40)

    assert attempts == [1]
    status = await conn.fetchval("SELECT status FROM job_public_status($1)", job.id)
    assert status == "succeeded"
