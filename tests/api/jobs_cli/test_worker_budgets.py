"""What the operator reads about a job's failures is what the workers do: the real worker logs a
held job by its public UUID, records its retry schedule, and `genji-jobs show` reports that
schedule's budget whatever the operator's own GENJI_QUEUE_RETRY_DELAYS says; workers that
disagree are reported as such."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from uuid import UUID

import asyncpg
import msgspec
import pytest
from genji_sdk import REGISTRY, JobContext
from genji_sdk.inspection import JobDetails
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor

from tests.support.harness import eventually
from tests.support.held_jobs import held_job
from tests.support.queue_helpers import XP_EVENT, enqueue_xp
from tests.support.testdb import Connect, Database

from .cli_process import genji_jobs

pytestmark = pytest.mark.queue

OPERATOR_ENV = {"GENJI_QUEUE_RETRY_DELAYS": "1,1,1,1,1"}
"""The operator's shell says five retries; the workers below allow two."""


def _settings(*delays: float) -> WorkerSettings:
    return WorkerSettings(
        polling_fallback=timedelta(seconds=0.2),
        drain_timeout=timedelta(seconds=1),
        reconnect_initial=timedelta(seconds=0.1),
        reconnect_max=timedelta(seconds=0.5),
        command_timeout=timedelta(seconds=2),
        retry_delays=tuple(timedelta(seconds=d) for d in delays),
    )


async def _noop(payload: msgspec.Struct, context: JobContext) -> None:
    return None


async def _broken(payload: msgspec.Struct, context: JobContext) -> None:
    raise RuntimeError("the handler always fails")


@asynccontextmanager
async def worker(db: Database, settings: WorkerSettings) -> AsyncIterator[None]:
    handlers = {spec.name: _noop for spec in REGISTRY.owned_by("bot")}
    handlers[XP_EVENT] = _broken
    supervisor = QueueSupervisor(
        owner="bot",
        handlers=handlers,
        connect=lambda: asyncpg.connect(db.worker_dsn),
        settings=settings,
    )
    task = asyncio.create_task(supervisor.run())
    try:
        yield
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(task, 10)


async def _recorded(conn: asyncpg.Connection, count: int) -> list[list[float]] | None:
    rows = await conn.fetch(
        "SELECT retry_delays FROM queue_workers WHERE retry_delays IS NOT NULL ORDER BY beat_at"
    )
    return [list(r["retry_delays"]) for r in rows] if len(rows) == count else None


async def _details(db: Database, job_id: UUID) -> tuple[JobDetails, str]:
    as_json = await genji_jobs(db, "show", str(job_id), "--json", **OPERATOR_ENV)
    assert as_json.code == 0, as_json.stderr
    text = await genji_jobs(db, "show", str(job_id), **OPERATOR_ENV)
    assert text.code == 0, text.stderr
    return msgspec.json.decode(as_json.stdout, type=JobDetails), " ".join(text.stdout.split())


async def test_the_held_log_line_names_the_uuid_and_show_reports_the_workers_budget(
    db: Database, connect: Connect, caplog: pytest.LogCaptureFixture
) -> None:
    conn = await connect()
    job_id = (await enqueue_xp(conn, "xp:budget", user_id=41)).id
    queue_id = await conn.fetchval("SELECT queue_job_id FROM jobs WHERE id = $1", job_id)

    async def held() -> bool:
        status = await conn.fetchval(
            "SELECT q.status::text FROM pgqueuer q WHERE q.id = $1", queue_id
        )
        return status == "failed"

    with caplog.at_level(logging.INFO, logger="genji.queue"):
        async with worker(db, _settings(0.05, 0.05)):
            await eventually(held, deadline=30, what="the job held after two retries")
            assert await eventually(lambda: _recorded(conn, 1), what="the recorded schedule") == [
                [0.05, 0.05]
            ]
            details, text = await _details(db, job_id)

    name = f"job {job_id} ({XP_EVENT}, queue id {queue_id})"
    messages = [r.getMessage() for r in caplog.records]
    assert any(m.startswith(f"{name} held after exhausting its retries") for m in messages), (
        messages
    )
    assert sum(m.startswith(f"{name} failed and will be retried") for m in messages) == 2

    assert (details.handler_failures, details.failure_budget) == (3, 2)
    assert [(b.failure_budget, b.live) for b in details.worker_budgets] == [(2, 1)]
    assert "retried up to 2 times, then held: the schedule 1 live bot worker recorded" in text


async def test_show_says_when_live_workers_disagree_on_the_budget(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    job_id = await held_job(conn, "xp:budget:held")
    async with worker(db, _settings(0.05, 0.05)), worker(db, _settings(1, 1, 1, 1)):
        await eventually(lambda: _recorded(conn, 2), what="two recorded schedules")
        details, text = await _details(db, job_id)

    assert details.failure_budget == 2
    assert sorted((b.failure_budget, b.live) for b in details.worker_budgets) == [(2, 1), (4, 1)]
    assert "live workers disagree:" in text
    assert "1 bot worker retries up to 2" in text and "1 bot worker retries up to 4" in text
