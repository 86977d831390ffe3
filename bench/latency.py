"""Start latency: from the commit of the enqueue transaction to handler entry, with an idle
in-process fenced QueueSupervisor, on a durable server and with fsync off.

One job at a time: the producer commits a business transaction that calls the API's
enqueue_job, the worker wakes on the notification (not the polling fallback), claims, passes
the start gate and enters the handler. Both ends read time.monotonic() in this process. The
next job is enqueued once the queue is empty again and the worker is back to waiting.

On a durable server the path holds three WAL flushes: the producer's commit (before the clock
starts, so not counted), the claim and the start gate.

    uv run --frozen python bench/latency.py [--quick]
"""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass
from uuid import UUID

import msgspec
from common import (
    DEADLINE_S,
    DURABLE,
    EVENT,
    FSYNC_OFF,
    MODES,
    POLL_S,
    Database,
    Mode,
    Target,
    bench_cluster,
    bench_main,
    describe_server,
    in_process_supervisor,
    migrated_database,
    percentile,
    print_table,
    print_targets,
    until,
)
from genji_api.queue.enqueue import enqueue_job
from genji_sdk import JobContext
from genji_sdk.payloads.xp import XpGrantEvent

DATABASE = "genji_bench_latency"
QUEUE_BUSY_SQL = "SELECT EXISTS (SELECT 1 FROM pgqueuer)"
REGISTERED_SQL = "SELECT EXISTS (SELECT 1 FROM queue_workers WHERE manager_id = $1)"
WARMUP = 5
# Lets the worker finish its post-completion dequeue and go back to waiting.
IDLE_GAP_S = 0.03
TARGETS_MS = {DURABLE: 20.0, FSYNC_OFF: 5.0}
SAMPLES = {DURABLE: 100, FSYNC_OFF: 200}
QUICK = {DURABLE: 30, FSYNC_OFF: 50}


@dataclass(frozen=True)
class Latencies:
    samples_ms: list[float]

    def cut(self, at: int) -> float:
        return percentile(self.samples_ms, at)


def grant(i: int) -> XpGrantEvent:
    return XpGrantEvent(
        grant_id=i, user_id=i, amount=5, type="Completion", previous_amount=0, new_amount=5
    )


async def sample_latencies(database: Database, samples: int) -> list[float]:
    """Milliseconds from enqueue commit to handler entry, one job at a time."""
    waiting: dict[UUID, asyncio.Future[float]] = {}

    async def stamp(payload: msgspec.Struct, context: JobContext) -> None:
        entered = time.monotonic()
        future = waiting.get(context.job_id)
        if future is not None and not future.done():
            future.set_result(entered)

    supervisor = in_process_supervisor(database, stamp)
    runner = asyncio.create_task(supervisor.run())
    conn = await database.connect()
    try:

        async def registered() -> bool:
            manager = supervisor.manager_id
            return manager is not None and bool(await conn.fetchval(REGISTERED_SQL, manager))

        async def idle() -> bool:
            return not await conn.fetchval(QUEUE_BUSY_SQL)

        await until(registered, "the in-process supervisor to register")
        loop = asyncio.get_running_loop()
        latencies: list[float] = []
        for i in range(WARMUP + samples):
            async with conn.transaction():
                job = await enqueue_job(
                    conn,
                    event_name=EVENT,
                    payload=grant(i),
                    event_key=f"latency:{i}",
                    entity_key=f"user:latency:{i}",
                )
                future: asyncio.Future[float] = loop.create_future()
                waiting[job.id] = future
            committed = time.monotonic()
            entered = await asyncio.wait_for(future, 10)
            del waiting[job.id]
            if i >= WARMUP:
                latencies.append((entered - committed) * 1000)
            await until(idle, "the job to complete", interval=POLL_S)
            await asyncio.sleep(IDLE_GAP_S)
        return latencies
    finally:
        await conn.close()
        supervisor.request_stop()
        await asyncio.wait_for(runner, DEADLINE_S)


async def measure(mode: Mode, samples: int) -> Latencies:
    with bench_cluster(mode) as cluster:
        database = await migrated_database(cluster, DATABASE)
        conn = await database.connect()
        try:
            print(f"\n{await describe_server(conn, mode)}")
        finally:
            await conn.close()
        print(f"  {samples} samples after {WARMUP} warm-up jobs", flush=True)
        return Latencies(await sample_latencies(database, samples))


def report(by_mode: dict[Mode, Latencies]) -> list[Target]:
    rows = [
        [
            f"p{at}",
            *(f"{latencies.cut(at):.2f}" for latencies in by_mode.values()),
        ]
        for at in (50, 90, 99)
    ]
    rows.append(["max", *(f"{max(lat.samples_ms):.2f}" for lat in by_mode.values())])
    print_table("commit -> handler start, ms", [mode.label for mode in by_mode], rows, "cut")
    targets = [
        Target("p50 commit -> handler start", mode, latencies.cut(50), TARGETS_MS[mode], "ms")
        for mode, latencies in by_mode.items()
    ]
    print_targets(targets)
    return targets


async def run(quick: bool) -> list[Target]:
    samples = QUICK if quick else SAMPLES
    by_mode = {mode: await measure(mode, samples[mode]) for mode in MODES}
    return report(by_mode)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "latency", run))
