"""Where the drain's time goes: server execution time per job of every statement the fenced
QueueSupervisor and stock PGQueuer send, at the spec settings, with fsync off.

One drain of N jobs per case, as in drain.py, on a server with pg_stat_statements loaded. For
each case the report gives the wall time per job, the server's execution time per job summed
over the worker's top-level statements, and the statements that take it: calls per job and
microseconds per job. Execution time leaves out the commit's WAL flush, which drain.py's WAL
flush count covers on a durable server. A second table opens the statements up: every PL/pgSQL
function and trigger they ran (track_functions), with calls per job, time per job including
what it called, and its own time per job without that (self); SQL functions the planner
inlines do not appear, their time is their caller's. A third lists the statements those
functions and triggers ran (pg_stat_statements.track = all), whose time is also their
caller's.

A last table per case samples the worker's backend with Linux perf during one more drain of N
jobs (backend_profile.py): its CPU by stage of statement processing, executor start-up
included, which pg_stat_statements does not time. (Not more jobs: with 900 queued, stock
PGQueuer's dequeue statement is planned afresh at every call, which it is not at 300.)

    uv run --frozen python bench/drain_parts.py [--quick]
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Sequence

import asyncpg
from backend_profile import print_profile, sampled
from common import (
    FSYNC_OFF,
    OWNER,
    Database,
    StatementCounter,
    bench_cluster,
    bench_main,
    describe_server,
    migrated_database,
    print_table,
    until,
)
from drain import CASES, QUEUE_BUSY_SQL, STOCK_APPLICATION, Drain, fill_queue
from genji_devstack.cluster import PgCluster

DATABASE = "genji_bench_drain_parts"
JOBS = 300
QUICK_JOBS = 100
SHOWN = 6
# The profile's window closes with this many jobs still queued, before the worker stops.
PROFILE_TAIL = 10

PRELOAD_SQL = "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'"
TRACK_FUNCTIONS_SQL = "ALTER SYSTEM SET track_functions = 'pl'"
TRACK_NESTED_SQL = "ALTER SYSTEM SET pg_stat_statements.track = 'all'"
# Off while a backend is sampled: their hooks run around the executor's and would be charged
# to its stages.
UNTRACKED_SQL = (
    "ALTER SYSTEM SET track_functions = 'none'",
    "ALTER SYSTEM SET pg_stat_statements.track = 'none'",
)
NESTED_TRACKING_SQL = "SHOW pg_stat_statements.track"
RESET_SQL = "SELECT pg_stat_statements_reset()"
# Function statistics of the database: statements_database turns them on.
RESET_FUNCTIONS_SQL = "SELECT pg_stat_reset()"
# The benchmark's own statements (the emptiness probe, this query) are left out.
STATEMENTS_SQL = """
SELECT calls, total_exec_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 64) AS query
FROM pg_stat_statements
WHERE toplevel AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND query NOT LIKE '%pg_stat_statements%' AND query <> $1
ORDER BY total_exec_time DESC
"""
PROBE_NORMALIZED = QUEUE_BUSY_SQL.replace("SELECT 1", "SELECT $1")
# A session reports its function statistics when a transaction ends, at most once a second,
# and when it exits: the queue is filled and drained by sessions that have exited before the
# statistics are reset and read.
FUNCTIONS_SQL = """
SELECT funcname, calls, total_time, self_time FROM pg_stat_user_functions
WHERE calls > 0 ORDER BY self_time DESC
"""
SHOWN_FUNCTIONS = 12
# The statements the functions and triggers ran, each counted again in its caller's time.
NESTED_SQL = STATEMENTS_SQL.replace("WHERE toplevel", "WHERE NOT toplevel")
SHOWN_NESTED = 12
WORKER_PID_SQL = """
SELECT pid FROM pg_stat_activity
WHERE datname = current_database() AND application_name = ANY ($1::text[])
"""
WORKER_APPLICATIONS = [STOCK_APPLICATION, f"genji-{OWNER}-worker"]
QUEUED_SQL = "SELECT count(*) FROM pgqueuer"
OTHER_SESSIONS_SQL = """
SELECT count(*) FROM pg_stat_activity
WHERE datname = current_database() AND pid <> ALL ($1::integer[])
"""


async def statements_database(cluster: PgCluster, name: str) -> Database:
    """A migrated database on `cluster`, restarted with pg_stat_statements loaded and created,
    tracking the statements inside functions too, and with PL/pgSQL functions' statistics on.
    Statistics of every role's statements are the superuser's to load, reset and read."""
    database = await migrated_database(cluster, name)
    admin = await database.admin_connect()
    try:
        await admin.execute(PRELOAD_SQL)
        await admin.execute(TRACK_FUNCTIONS_SQL)
    finally:
        await admin.close()
    await asyncio.to_thread(cluster.restart)
    admin = await database.admin_connect()
    try:
        await admin.execute("CREATE EXTENSION pg_stat_statements")
        # Known once the library is loaded.
        await admin.execute(TRACK_NESTED_SQL)
        await admin.execute("SELECT pg_reload_conf()")
    finally:
        await admin.close()
    return database


async def measure(n: int) -> None:
    with bench_cluster(FSYNC_OFF) as cluster:
        database = await statements_database(cluster, DATABASE)
        admin = await database.admin_connect()
        conn = await database.connect()
        try:
            print(f"\n{await describe_server(conn, FSYNC_OFF)}, pg_stat_statements loaded")
            print(f"  one drain of {n} jobs per case", flush=True)
            for name, drain in CASES:
                filler = await database.connect()
                await fill_queue(database, filler, n)
                await filler.close()
                await only_sessions_left(admin, {admin, conn})
                await admin.execute(RESET_SQL)
                await admin.execute(RESET_FUNCTIONS_SQL)
                began = time.perf_counter()
                await drain(database, conn, StatementCounter())
                wall_us = (time.perf_counter() - began) * 1e6 / n
                await only_sessions_left(admin, {admin, conn})
                rows = await admin.fetch(STATEMENTS_SQL, PROBE_NORMALIZED)
                report(name, n, wall_us, rows)
                report_functions(name, n, await admin.fetch(FUNCTIONS_SQL))
                report_nested(name, n, await admin.fetch(NESTED_SQL, PROBE_NORMALIZED))
                await profile(database, admin, conn, name, drain, n)
        finally:
            await conn.close()
            await admin.close()


async def profile(
    database: Database,
    admin: asyncpg.Connection,
    conn: asyncpg.Connection,
    name: str,
    drain: Drain,
    n: int,
) -> None:
    """One more drain of `n` jobs without statistics, its worker's backend sampled from soon
    after its session is up until a few jobs are left."""
    filler = await database.connect()
    await fill_queue(database, filler, n)
    await filler.close()
    await only_sessions_left(admin, {admin, conn})
    await tracking(admin, on=False)
    try:
        await sampled_drain(admin, name, drain(database, conn, StatementCounter()))
    finally:
        await tracking(admin, on=True)


async def tracking(admin: asyncpg.Connection, *, on: bool) -> None:
    """Statement and function statistics on, as statements_database set them, or off."""
    for statement in (TRACK_FUNCTIONS_SQL, TRACK_NESTED_SQL) if on else UNTRACKED_SQL:
        await admin.execute(statement)
    await admin.execute("SELECT pg_reload_conf()")
    wanted = "all" if on else "none"

    async def applied() -> bool:
        return bool(await admin.fetchval(NESTED_TRACKING_SQL) == wanted)

    await until(applied, "the statistics settings to apply")


async def sampled_drain(admin: asyncpg.Connection, name: str, drain: Awaitable[float]) -> None:
    """Run `drain`, sampling its worker's backend."""
    runner = asyncio.ensure_future(drain)
    pids: list[int] = []

    async def connected() -> bool:
        pids[:] = [row["pid"] for row in await admin.fetch(WORKER_PID_SQL, WORKER_APPLICATIONS)]
        return len(pids) == 1 or runner.done()

    await until(connected, "the worker's session", interval=0.005)
    if runner.done():
        runner.result()
        print(f"\n{name}: CPU profile skipped (the drain ended before it could begin)")
        return

    async def near_the_end() -> bool:
        return runner.done() or await admin.fetchval(QUEUED_SQL) <= PROFILE_TAIL

    # The sampling ends while the worker still runs, so its backend's CPU time can be read.
    async with sampled(pids[0]) as samples:
        left = await admin.fetchval(QUEUED_SQL)
        await until(near_the_end, "the drain's last jobs", interval=0.005)
        jobs = left - await admin.fetchval(QUEUED_SQL)
    await runner
    print_profile(f"{name}, {jobs} jobs", samples, jobs)


async def only_sessions_left(admin: asyncpg.Connection, kept: set[asyncpg.Connection]) -> None:
    """Wait until every other session of the database has exited: a session reports its
    function statistics before it leaves pg_stat_activity."""
    pids = [c.get_server_pid() for c in kept]

    async def gone() -> bool:
        others = await admin.fetchval(OTHER_SESSIONS_SQL, pids)
        return bool(others == 0)

    await until(gone, "the database's other sessions to exit")


def report(name: str, n: int, wall_us: float, rows: Sequence[asyncpg.Record]) -> None:
    server_us = sum(row["total_exec_time"] for row in rows) * 1000 / n
    table = [
        [
            row["query"],
            f"{row['calls'] / n:.2f}",
            f"{row['total_exec_time'] * 1000 / n:.0f}",
        ]
        for row in rows[:SHOWN]
    ]
    print_table(
        f"{name}: {1e6 / wall_us:,.0f} jobs/s, wall {wall_us:.0f} us/job, "
        f"server execution {server_us:.0f} us/job",
        ["calls/job", "us/job"],
        table,
        "statement",
    )


def report_functions(name: str, n: int, rows: Sequence[asyncpg.Record]) -> None:
    table = [
        [
            row["funcname"],
            f"{row['calls'] / n:.2f}",
            f"{row['total_time'] * 1000 / n:.0f}",
            f"{row['self_time'] * 1000 / n:.0f}",
        ]
        for row in rows[:SHOWN_FUNCTIONS]
    ]
    print_table(
        f"{name}: inside the statements, the PL/pgSQL functions and triggers they ran",
        ["calls/job", "us/job", "self us/job"],
        table,
        "function",
    )


def report_nested(name: str, n: int, rows: Sequence[asyncpg.Record]) -> None:
    table = [
        [row["query"], f"{row['calls'] / n:.2f}", f"{row['total_exec_time'] * 1000 / n:.0f}"]
        for row in rows[:SHOWN_NESTED]
    ]
    print_table(
        f"{name}: the statements inside those functions and triggers",
        ["calls/job", "us/job"],
        table,
        "statement",
    )


async def run(quick: bool) -> None:
    await measure(QUICK_JOBS if quick else JOBS)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "drain parts", run))
