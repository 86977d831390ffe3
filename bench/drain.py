"""Drain throughput: the fenced QueueSupervisor against stock PGQueuer 1.1.1 at the spec
settings, on a durable server and with fsync off.

N "api.xp.grant" jobs (one entity each, enqueued with enqueue_job) are drained with a no-op
handler at batch 1, 2 active jobs and entrypoint concurrency 1, with 0.5 s polling, by

  fenced   the QueueSupervisor in this process, logged in as the worker role as in production
  stock    PGQueuer's QueueManager in drain mode, as the owner (it deletes completed rows
           itself, which the worker role may not do; the owner also skips row-level security,
           so the baseline is if anything flattered)

The clock runs from start until the pgqueuer table is empty. The queue tables are truncated
and refilled before every run and the two alternate over the rounds. Next to the throughput
the report gives each case's statements per job (counted on the worker's connection, start-up
included), and WAL flushes (fsyncs, from pg_stat_wal; none with fsync off) and WAL bytes per
job, read from the server: on a durable server every committed write transaction waits for its
WAL flush.

    uv run --frozen python bench/drain.py [--quick]
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import asyncpg
import msgspec
from common import (
    DEADLINE_S,
    DURABLE,
    EVENT,
    FSYNC_OFF,
    MODES,
    OWNER,
    POLL_S,
    SUPERVISOR_SETTINGS,
    Database,
    Mode,
    StatementCounter,
    Target,
    bench_cluster,
    bench_main,
    describe_server,
    in_process_supervisor,
    migrated_database,
    paired_ratio,
    print_table,
    print_targets,
    until,
    xp_body,
)
from genji_queue.enqueue import enqueue_job_raw
from genji_sdk import JobContext
from pgqueuer import QueueManager
from pgqueuer.db import AsyncpgDriver
from pgqueuer.models import Job
from pgqueuer.queries import Queries
from pgqueuer.types import QueueExecutionMode

DATABASE = "genji_bench_drain"
FENCED = "fenced QueueSupervisor"
STOCK = "stock PGQueuer"
TARGET = 1.0

RESET_SQL = "TRUNCATE pgqueuer, pgqueuer_log, public.jobs CASCADE"
QUEUE_BUSY_SQL = "SELECT EXISTS (SELECT 1 FROM pgqueuer)"
STOCK_APPLICATION = "bench-stock-pgqueuer"
# WAL fsyncs so far and the WAL position. Backends publish their WAL counters when idle or at
# exit, so this is read once the workers' sessions are gone and after this session has
# published its own.
PUBLISH_SQL = "SELECT pg_stat_force_next_flush()"
WAL_SQL = "SELECT wal_sync, (pg_current_wal_lsn() - '0/0')::bigint FROM pg_stat_wal"
WORKER_SESSIONS_SQL = "SELECT count(*) FROM pg_stat_activity WHERE application_name = ANY($1)"

# Stock PGQueuer polls as often as the in-process supervisor.
STOCK_POLLING = SUPERVISOR_SETTINGS.polling_fallback


@dataclass(frozen=True)
class Sizes:
    n: int
    rounds: int


SIZES = {DURABLE: Sizes(n=100, rounds=6), FSYNC_OFF: Sizes(n=300, rounds=4)}
QUICK = {DURABLE: Sizes(n=60, rounds=2), FSYNC_OFF: Sizes(n=100, rounds=2)}


@dataclass
class DrainResult:
    rates: list[float] = field(default_factory=list)
    statements_per_job: list[float] = field(default_factory=list)
    flushes_per_job: list[float] = field(default_factory=list)
    wal_bytes_per_job: list[float] = field(default_factory=list)

    @property
    def median_rate(self) -> float:
        return statistics.median(self.rates)


async def noop(payload: msgspec.Struct, context: JobContext) -> None:
    return None


async def fill_queue(database: Database, conn: asyncpg.Connection, n: int) -> None:
    await conn.execute(RESET_SQL)
    async with conn.transaction():
        for i in range(n):
            await enqueue_job_raw(
                conn,
                event_name=EVENT,
                payload_json=xp_body(i),
                event_key=f"drain:{i}",
                entity_key=f"user:{i}",
            )
    await database.checkpoint()


async def until_drained(probe: asyncpg.Connection, runner: asyncio.Task[None]) -> None:
    end = time.monotonic() + DEADLINE_S
    while True:
        finished = runner.done()
        if not await probe.fetchval(QUEUE_BUSY_SQL):
            return
        if finished:
            runner.result()
            raise RuntimeError("the worker stopped while jobs were still queued")
        if time.monotonic() > end:
            raise TimeoutError(f"queue not drained after {DEADLINE_S:.0f}s")
        await asyncio.sleep(POLL_S)


async def drain_fenced(
    database: Database, probe: asyncpg.Connection, counter: StatementCounter
) -> float:
    supervisor = in_process_supervisor(database, noop, counter)
    began = time.perf_counter()
    runner = asyncio.create_task(supervisor.run())
    try:
        await until_drained(probe, runner)
        return time.perf_counter() - began
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(runner, DEADLINE_S)


async def drain_stock(
    database: Database, probe: asyncpg.Connection, counter: StatementCounter
) -> float:
    began = time.perf_counter()
    conn = await asyncpg.connect(
        database.dsn, server_settings={"application_name": STOCK_APPLICATION}
    )
    counter.attach(conn)
    try:
        qm = QueueManager(Queries(AsyncpgDriver(conn)))

        @qm.entrypoint(EVENT, concurrency_limit=1)
        async def stock_noop(job: Job) -> None:
            return None

        runner = asyncio.create_task(
            qm.run(
                mode=QueueExecutionMode.drain,
                batch_size=1,
                max_concurrent_tasks=2,
                dequeue_timeout=STOCK_POLLING,
            )
        )
        try:
            await until_drained(probe, runner)
        except BaseException:
            qm.shutdown.set()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(runner, DEADLINE_S)
            raise
        elapsed = time.perf_counter() - began
        # Drain mode returns by itself once it sees the empty queue (outside the clock).
        await asyncio.wait_for(runner, DEADLINE_S)
        return elapsed
    finally:
        await conn.close()


Drain = Callable[[Database, asyncpg.Connection, StatementCounter], Awaitable[float]]
CASES: list[tuple[str, Drain]] = [(FENCED, drain_fenced), (STOCK, drain_stock)]


async def wal_counters(conn: asyncpg.Connection) -> tuple[int, int]:
    async def alone() -> bool:
        applications = [STOCK_APPLICATION, f"genji-{OWNER}-worker"]
        return bool(await conn.fetchval(WORKER_SESSIONS_SQL, applications) == 0)

    await until(alone, "the worker sessions to end", deadline=30, interval=POLL_S)
    await conn.execute(PUBLISH_SQL)
    flushes, position = await conn.fetchrow(WAL_SQL)
    return int(flushes), int(position)


async def one_run(
    database: Database, conn: asyncpg.Connection, name: str, drain: Drain, n: int, into: DrainResult
) -> float:
    """Fill the queue, drain it with `drain`, record the run in `into`; returns jobs/s."""
    await fill_queue(database, conn, n)
    flushes_before, wal_before = await wal_counters(conn)
    counter = StatementCounter()
    elapsed = await drain(database, conn, counter)
    flushes_after, wal_after = await wal_counters(conn)
    done = await conn.fetchval("SELECT count(*) FROM pgqueuer_log WHERE status = 'successful'")
    if done != n:
        raise RuntimeError(f"{name}: {done} of {n} jobs logged successful")
    into.rates.append(n / elapsed)
    into.statements_per_job.append(counter.count / n)
    into.flushes_per_job.append((flushes_after - flushes_before) / n)
    into.wal_bytes_per_job.append((wal_after - wal_before) / n)
    return n / elapsed


async def measure(mode: Mode, sizes: Sizes) -> dict[str, DrainResult]:
    with bench_cluster(mode) as cluster:
        database = await migrated_database(cluster, DATABASE)
        conn = await database.connect()
        try:
            print(f"\n{await describe_server(conn, mode)}")
            print(f"  {sizes.n} jobs per case per round, {sizes.rounds} rounds", flush=True)
            results = {name: DrainResult() for name, _ in CASES}
            for index in range(sizes.rounds):
                line = []
                for name, drain in CASES if index % 2 == 0 else CASES[::-1]:
                    rate = await one_run(database, conn, name, drain, sizes.n, results[name])
                    line.append(f"{name} {rate:,.0f}/s")
                print(f"  round {index + 1}: " + ", ".join(line), flush=True)
            return results
        finally:
            await conn.close()


def report(by_mode: dict[Mode, dict[str, DrainResult]]) -> list[Target]:
    for mode, results in by_mode.items():
        rounds = max(len(result.rates) for result in results.values())
        columns = [
            "median jobs/s",
            *(f"round {i + 1}" for i in range(rounds)),
            "statements/job",
            "WAL flushes/job",
            "WAL bytes/job",
        ]
        rows = [
            [
                name,
                f"{result.median_rate:,.0f}",
                *(f"{rate:,.0f}" for rate in result.rates),
                f"{statistics.median(result.statements_per_job):.2f}",
                f"{statistics.median(result.flushes_per_job):.2f}",
                f"{statistics.median(result.wal_bytes_per_job):,.0f}",
            ]
            for name, result in results.items()
        ]
        print_table(f"drain [{mode.label}], jobs/s per round", columns, rows, "case")
    ratios = {
        mode: paired_ratio(results[FENCED].rates, results[STOCK].rates)
        for mode, results in by_mode.items()
    }
    print_table(
        "throughput ratio (median of the per-round ratios)",
        [mode.label for mode in by_mode],
        [[f"{FENCED} / {STOCK}", *(f"{value:.2f}" for value in ratios.values())]],
        "ratio",
    )
    name = f"fenced drain / {STOCK}"
    targets = [Target(name, mode, value, TARGET, "x") for mode, value in ratios.items()]
    print_targets(targets)
    return targets


async def run(quick: bool) -> list[Target]:
    sizes = QUICK if quick else SIZES
    by_mode = {mode: await measure(mode, sizes[mode]) for mode in MODES}
    return report(by_mode)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "drain", run))
