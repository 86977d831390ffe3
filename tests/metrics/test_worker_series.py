"""The worker's own series, scraped from its /metrics after a real worker ran a succeeding and a
failing job: outcomes where the executor decided them, one handler observation per run."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import asyncpg
import msgspec
import pytest
from genji_sdk import REGISTRY, JobContext
from genji_worker.metrics import start_metrics_server
from genji_worker.settings import MetricsSettings, WorkerSettings
from genji_worker.supervisor import QueueSupervisor

from tests.support.harness import eventually
from tests.support.queue_helpers import XP_EVENT, enqueue_xp
from tests.support.testdb import Connect, Database

from .scrape import Samples, scrape, value

pytestmark = pytest.mark.queue

FAST = WorkerSettings(
    polling_fallback=timedelta(seconds=0.2),
    drain_timeout=timedelta(seconds=1),
    reconnect_initial=timedelta(seconds=0.1),
    reconnect_max=timedelta(seconds=0.5),
    command_timeout=timedelta(seconds=2),
    retry_delays=(timedelta(milliseconds=50),),
)
XP = {"owner": "bot", "entrypoint": XP_EVENT}


async def _noop(payload: msgspec.Struct, context: JobContext) -> None:
    return None


def _outcomes(samples: Samples) -> dict[str, float | None]:
    return {
        outcome: value(samples, "genji_job_outcomes_total", **XP, outcome=outcome)
        for outcome in ("succeeded", "retried", "held")
    }


async def test_worker_counts_success_retry_and_hold_and_times_each_handler_run(
    db: Database, connect: Connect
) -> None:
    conn = await connect()

    async def xp_handler(payload: msgspec.Struct, context: JobContext) -> None:
        if context.event_key == "xp:fails":
            raise RuntimeError("the handler failed")
        await asyncio.sleep(0.3)

    handlers = {spec.name: _noop for spec in REGISTRY.owned_by("bot")}
    handlers[XP_EVENT] = xp_handler
    supervisor = QueueSupervisor(
        owner="bot",
        handlers=handlers,
        connect=lambda: asyncpg.connect(db.worker_dsn),
        settings=FAST,
    )
    server = start_metrics_server(MetricsSettings(port=0))
    try:
        before = await scrape(server.url)
        await enqueue_xp(conn, "xp:works", grant_id=1, user_id=1)
        await enqueue_xp(conn, "xp:fails", grant_id=2, user_id=2)
        task = asyncio.create_task(supervisor.run())
        try:

            async def settled() -> bool:
                held = await conn.fetchval("SELECT count(*) FROM pgqueuer WHERE status = 'failed'")
                left = await conn.fetchval("SELECT count(*) FROM pgqueuer WHERE status <> 'failed'")
                return held == 1 and left == 0

            await eventually(settled, deadline=15, what="one job done and one held")
            # The success is counted when its handler returns; the scrape may precede it.
            after = await eventually(
                lambda: _counted(server.url, before), deadline=10, what="the outcomes counted"
            )
        finally:
            supervisor.request_stop()
            await asyncio.wait_for(task, 10)
    finally:
        server.close()

    was, now = _outcomes(before), _outcomes(after)
    assert {k: (now[k] or 0) - (was[k] or 0) for k in now} == {
        "succeeded": 1,
        "retried": 1,
        "held": 1,
    }
    runs = (value(after, "genji_job_handler_duration_seconds_count", **XP) or 0) - (
        value(before, "genji_job_handler_duration_seconds_count", **XP) or 0
    )
    assert runs == 3
    spent = (value(after, "genji_job_handler_duration_seconds_sum", **XP) or 0) - (
        value(before, "genji_job_handler_duration_seconds_sum", **XP) or 0
    )
    assert 0.3 <= spent < 5
    slow = (value(after, "genji_job_handler_duration_seconds_bucket", **XP, le="0.25") or 0) - (
        value(before, "genji_job_handler_duration_seconds_bucket", **XP, le="0.25") or 0
    )
    assert slow == 2, "the two failing runs are fast, the succeeding one is not"


async def _counted(url: str, before: Samples) -> Samples | None:
    samples = await scrape(url)
    was, now = _outcomes(before), _outcomes(samples)
    done = sum((now[k] or 0) - (was[k] or 0) for k in now)
    return samples if done >= 3 else None
