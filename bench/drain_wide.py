"""Drain throughput beyond the spec settings: batch 10, 20 active jobs, 2 worker processes,
the fenced QueueSupervisor against stock PGQueuer 1.1.1, on a durable server and with fsync
off.

N jobs spread round-robin over every bot event (one entity each; payloads from
genji_devstack.payload_samples, enqueued with enqueue_job in one transaction) are drained with
a no-op handler by two processes of bench/drain_worker.py:

  fenced   QueueSupervisor, worker login; the database lets one job of an event run at a time
           across both processes (pgqueuer_one_running_per_entrypoint)
  stock    QueueManager in continuous mode, owner login, concurrency_limit 1 per event in
           each process (its dequeue counts the event's running jobs of both processes, but
           two dequeues at once may both pass that count)

Both processes are started first and the clock runs from the commit of the fill (whose
notification wakes them; 0.5 s polling otherwise) until pgqueuer is empty. Cases alternate
over the rounds from truncated tables; the ratio is the median of the per-round ratios.

    uv run --frozen python bench/drain_wide.py [--quick]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import asyncpg
from common import (
    DEADLINE_S,
    DURABLE,
    FSYNC_OFF,
    MODES,
    POLL_S,
    Database,
    Mode,
    Target,
    bench_cluster,
    bench_main,
    describe_server,
    migrated_database,
    paired_ratio,
    print_table,
    print_targets,
    until,
)
from drain import PUBLISH_SQL, QUEUE_BUSY_SQL, RESET_SQL, WAL_SQL, WORKER_SESSIONS_SQL
from drain_worker import DSN_VARIABLE, EVENTS, FENCED_APPLICATION, STOCK_APPLICATION
from genji_devstack.payload_samples import SAMPLES
from genji_queue.enqueue import enqueue_job_raw
from genji_sdk import encode_payload

DATABASE = "genji_bench_drain_wide"
WORKER = Path(__file__).with_name("drain_worker.py")
PROCESSES = 2
BATCH = 10
ACTIVE = 20
TARGET = 1.0
FENCED = "fenced QueueSupervisor"
STOCK = "stock PGQueuer"
APPLICATIONS = {FENCED: FENCED_APPLICATION, STOCK: STOCK_APPLICATION}
READY_SQL = "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle'"
ONE_RUNNING = "pgqueuer_one_running_per_entrypoint"
# Two jobs per event drained before the clock starts: both processes are past start-up.
WARMUP = 2 * len(EVENTS)


@dataclass(frozen=True)
class Sizes:
    n: int
    rounds: int


SIZES = {DURABLE: Sizes(n=500, rounds=4), FSYNC_OFF: Sizes(n=1000, rounds=4)}
QUICK = {DURABLE: Sizes(n=200, rounds=2), FSYNC_OFF: Sizes(n=300, rounds=2)}


@dataclass
class Run:
    rate: float
    flushes_per_job: float
    refused_claims: int
    """Claims the one-running-per-event index refused (stock logs each as an error)."""
    rollbacks: int
    """Transactions the workers rolled back: refused and deadlocked claims, either case's."""
    deadlocks: int
    """Deadlocks between the workers' claims; each one waited out the server's deadlock_timeout
    (1 s) first."""


# pg_stat_database counts every session's rollbacks and deadlocks; the benchmark's own
# connection has none, and the worker sessions have ended (and reported) when it is read.
ROLLBACKS_SQL = """
SELECT xact_rollback, deadlocks FROM pg_stat_database WHERE datname = current_database()
"""


async def fill(conn: asyncpg.Connection, n: int, tag: str) -> None:
    bodies = [(name, encode_payload(name, SAMPLES[name]).decode()) for name in EVENTS]
    async with conn.transaction():
        for i in range(n):
            name, body = bodies[i % len(bodies)]
            await enqueue_job_raw(
                conn,
                event_name=name,
                payload_json=body,
                event_key=f"wide:{tag}:{i}",
                entity_key=f"wide:{tag}:{i}",
            )


async def wal(conn: asyncpg.Connection) -> int:
    await conn.execute(PUBLISH_SQL)
    flushes, _ = await conn.fetchrow(WAL_SQL)
    return int(flushes)


async def one_run(
    database: Database, conn: asyncpg.Connection, case: str, n: int, round_index: int
) -> Run:
    await conn.execute(RESET_SQL)
    await database.checkpoint()
    dsn = database.worker_dsn if case == FENCED else database.dsn
    kind = "fenced" if case == FENCED else "stock"
    application = APPLICATIONS[case]
    environment = {**os.environ, DSN_VARIABLE: dsn}
    errors = tempfile.TemporaryFile("w+")
    await conn.execute(PUBLISH_SQL)
    rolled_back, deadlocked = await conn.fetchrow(ROLLBACKS_SQL)
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(WORKER),
            kind,
            str(BATCH),
            str(ACTIVE),
            env=environment,
            stderr=errors,
        )
        for _ in range(PROCESSES)
    ]
    try:
        # Only the superuser sees the state of another role's sessions.
        admin = await database.admin_connect()
        try:

            async def ready() -> bool:
                return bool(await admin.fetchval(READY_SQL, application) == PROCESSES)

            await until(ready, f"{PROCESSES} {case} processes to connect", interval=POLL_S)
        finally:
            await admin.close()
        await fill(conn, WARMUP, f"warm:{round_index}")
        await until(lambda: idle(conn), "the warm-up jobs to drain", interval=POLL_S)
        before = await wal(conn)
        await fill(conn, n, str(round_index))
        began = time.perf_counter()
        await until(lambda: idle(conn), "the queue to drain", deadline=DEADLINE_S, interval=POLL_S)
        elapsed = time.perf_counter() - began
    finally:
        for worker in workers:
            if worker.returncode is None:
                worker.terminate()
        for worker in workers:
            await asyncio.wait_for(worker.wait(), DEADLINE_S)

    async def alone() -> bool:
        return bool(await conn.fetchval(WORKER_SESSIONS_SQL, [application]) == 0)

    await until(alone, "the worker sessions to end", deadline=30, interval=POLL_S)
    flushes = await wal(conn) - before
    rollbacks, deadlocks = await conn.fetchrow(ROLLBACKS_SQL)
    errors.seek(0)
    refused = errors.read().count(f'constraint "{ONE_RUNNING}"')
    errors.close()
    done = await conn.fetchval("SELECT count(*) FROM pgqueuer_log WHERE status = 'successful'")
    if done != WARMUP + n:
        raise RuntimeError(f"{case}: {done} of {WARMUP + n} jobs logged successful")
    return Run(n / elapsed, flushes / n, refused, rollbacks - rolled_back, deadlocks - deadlocked)


async def idle(conn: asyncpg.Connection) -> bool:
    return not await conn.fetchval(QUEUE_BUSY_SQL)


async def measure(mode: Mode, sizes: Sizes) -> dict[str, list[Run]]:
    with bench_cluster(mode) as cluster:
        database = await migrated_database(cluster, DATABASE)
        conn = await database.connect()
        try:
            print(f"\n{await describe_server(conn, mode)}")
            print(
                f"  {sizes.n} jobs over {len(EVENTS)} events per case per round, {sizes.rounds}"
                f" rounds; batch {BATCH}, {ACTIVE} active jobs, {PROCESSES} processes",
                flush=True,
            )
            runs: dict[str, list[Run]] = {FENCED: [], STOCK: []}
            cases = [FENCED, STOCK]
            for index in range(sizes.rounds):
                line = []
                for case in cases if index % 2 == 0 else cases[::-1]:
                    run = await one_run(database, conn, case, sizes.n, index)
                    runs[case].append(run)
                    line.append(f"{case} {run.rate:,.0f}/s")
                print(f"  round {index + 1}: " + ", ".join(line), flush=True)
            return runs
        finally:
            await conn.close()


def report(by_mode: dict[Mode, dict[str, list[Run]]]) -> list[Target]:
    for mode, runs in by_mode.items():
        rounds = max(len(r) for r in runs.values())
        columns = [
            "median jobs/s",
            *(f"round {i + 1}" for i in range(rounds)),
            "WAL flushes/job",
            "refused claims",
            "rollbacks",
            "deadlocks",
        ]
        rows = [
            [
                case,
                f"{statistics.median(r.rate for r in case_runs):,.0f}",
                *(f"{r.rate:,.0f}" for r in case_runs),
                f"{statistics.median(r.flushes_per_job for r in case_runs):.2f}",
                str(sum(r.refused_claims for r in case_runs)),
                str(sum(r.rollbacks for r in case_runs)),
                str(sum(r.deadlocks for r in case_runs)),
            ]
            for case, case_runs in runs.items()
        ]
        title = f"wide drain [{mode.label}]: batch {BATCH}, {ACTIVE} active, {PROCESSES} processes"
        print_table(title, columns, rows, "case")
    ratios = {
        mode: paired_ratio([r.rate for r in runs[FENCED]], [r.rate for r in runs[STOCK]])
        for mode, runs in by_mode.items()
    }
    print_table(
        "wide drain throughput ratio (median of the per-round ratios)",
        [mode.label for mode in by_mode],
        [[f"{FENCED} / {STOCK}", *(f"{value:.2f}" for value in ratios.values())]],
        "ratio",
    )
    name = f"wide drain {FENCED} / {STOCK}"
    targets = [Target(name, mode, value, TARGET, "x") for mode, value in ratios.items()]
    print_targets(targets)
    return targets


async def run(quick: bool) -> list[Target]:
    sizes = QUICK if quick else SIZES
    by_mode = {mode: await measure(mode, sizes[mode]) for mode in MODES}
    return report(by_mode)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "wide drain", run))
