"""A stop ends within its budget, and a lost connection is replaced, even when a handler
ignores every cancellation it is sent; the job goes back to the queue either way."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

import asyncpg
import msgspec
import pytest
from genji_sdk import JobContext
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor

from tests.support.harness import eventually
from tests.support.queue_helpers import bot_handlers, enqueue_xp
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue

QUEUE_BACKEND = "genji-test-stop-budget"
SETTINGS = WorkerSettings(
    polling_fallback=timedelta(seconds=0.2),
    drain_timeout=timedelta(seconds=0.5),
    command_timeout=timedelta(seconds=1),
    reconnect_initial=timedelta(seconds=0.1),
    reconnect_max=timedelta(seconds=0.5),
)


class Stubborn:
    """A handler that ignores every cancellation until the test lets it go."""

    def __init__(self) -> None:
        self.running, self.let_go, self.done = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def __call__(self, payload: msgspec.Struct, context: JobContext) -> None:
        self.running.set()
        try:
            while not self.let_go.is_set():
                with contextlib.suppress(asyncio.CancelledError):
                    await self.let_go.wait()
        finally:
            self.done.set()

    async def release(self) -> None:
        self.let_go.set()
        await asyncio.wait_for(self.done.wait(), 10)


def _supervisor(db: Database, handler: Stubborn) -> QueueSupervisor:
    return QueueSupervisor(
        owner="bot",
        handlers=bot_handlers(handler),
        connect=lambda: asyncpg.connect(
            db.worker_dsn, server_settings={"application_name": QUEUE_BACKEND}
        ),
        settings=SETTINGS,
    )


async def _status(conn: asyncpg.Connection, job_id: object) -> str | None:
    status: str | None = await conn.fetchval(
        "SELECT q.status::text FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id"
        " WHERE j.id = $1",
        job_id,
    )
    return status


async def test_a_stop_ends_in_time_though_a_handler_ignores_its_cancellation(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    handler = Stubborn()
    supervisor = _supervisor(db, handler)
    job = await enqueue_xp(conn, "xp:stubborn-stop")
    task = asyncio.create_task(supervisor.run())
    try:
        await asyncio.wait_for(handler.running.wait(), 10)
        supervisor.request_stop()
        # The drain, the runner's unwinding and the clean-up each have their own bound.
        await asyncio.wait_for(asyncio.shield(task), 10)
        assert await _status(conn, job.id) == "queued"
    finally:
        await handler.release()
        await asyncio.wait_for(task, 10)


async def test_a_lost_connection_is_replaced_though_a_handler_ignores_its_cancellation(
    db: Database, connect: Connect
) -> None:
    conn, killer = await connect(), await connect("admin")
    handler = Stubborn()
    supervisor = _supervisor(db, handler)
    job = await enqueue_xp(conn, "xp:stubborn-loss")
    task = asyncio.create_task(supervisor.run())
    try:
        await asyncio.wait_for(handler.running.wait(), 10)
        first = supervisor.manager_id
        await killer.execute(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
            " WHERE application_name = $1",
            QUEUE_BACKEND,
        )

        async def replaced() -> bool:
            released = await conn.fetchval(
                "SELECT count(*) FROM pgqueuer_log l JOIN jobs j ON j.queue_job_id = l.job_id"
                " WHERE j.id = $1 AND l.status = 'queued'"
                " AND l.traceback->>'exception_message' = 'worker lost its queue connection'",
                job.id,
            )
            return supervisor.manager_id not in (None, first) and released == 1

        await eventually(replaced, deadline=10, what="a new connection to give the job back")
    finally:
        await handler.release()
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)
