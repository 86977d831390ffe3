"""Where the wide drain's time goes: one drain_wide.py round per case (batch 10, 20 active jobs,
2 worker processes) on a server with pg_stat_statements loaded, with fsync off.

For each case the report gives the wall time per job and, per statement the workers send, its
calls per job, rows per call and server execution microseconds per job. The claim log then
tells how a job of one event follows the previous one, measured on the database's clock
(pgqueuer_log, the transaction start of each write), as medians:

  held      from a job's claim to its completion's write (the handler is a no-op: this is
            the buffered completion waiting for its flush)
  re-claim  from the completion of an event's job to the claim of its next job (waiting for a
            wake-up, polling, and the claim itself)

    uv run --frozen python bench/drain_wide_parts.py [--quick]
"""

from __future__ import annotations

import os
import statistics
import sys
from collections.abc import Sequence

import asyncpg
from common import FSYNC_OFF, bench_cluster, bench_main, describe_server
from drain_parts import PROBE_NORMALIZED, RESET_SQL, STATEMENTS_SQL, statements_database
from drain_wide import FENCED, ROLLBACKS_SQL, STOCK, WARMUP, one_run

DATABASE = "genji_bench_drain_wide_parts"
JOBS = 1000
QUICK_JOBS = 300
SHOWN = 8
STATEMENTS_ROWS_SQL = STATEMENTS_SQL.replace("SELECT calls,", "SELECT calls, rows,")
# The statements inside the queue functions, each once (a nested statement's time is also in
# its caller's).
NESTED_SQL = STATEMENTS_ROWS_SQL.replace("WHERE toplevel AND", "WHERE NOT toplevel AND")
# Per event, consecutive claims and completions in the order the database wrote them.
STEPS_SQL = """
WITH writes AS (
    SELECT entrypoint, job_id, status, created,
           lag(created) OVER (PARTITION BY entrypoint ORDER BY created, id) AS previous,
           lag(status) OVER (PARTITION BY entrypoint ORDER BY created, id) AS previous_status
    FROM pgqueuer_log WHERE status IN ('picked', 'successful')
)
SELECT status, extract(epoch FROM created - previous) * 1e6 AS us
FROM writes
WHERE previous IS NOT NULL
  AND ((status = 'successful' AND previous_status = 'picked')
       OR (status = 'picked' AND previous_status = 'successful'))
"""


async def measure(n: int) -> None:
    with bench_cluster(FSYNC_OFF) as cluster:
        database = await statements_database(cluster, DATABASE)
        admin = await database.admin_connect()
        conn = await database.connect()
        try:
            print(f"\n{await describe_server(conn, FSYNC_OFF)}, pg_stat_statements loaded")
            print(f"  one wide drain of {n} jobs per case ({WARMUP} warm-up jobs counted)")
            for case in (FENCED, STOCK):
                await admin.execute(RESET_SQL)
                await admin.execute("SELECT pg_stat_force_next_flush()")
                before = await admin.fetchrow(ROLLBACKS_SQL)
                cpu = children_cpu()
                result = await one_run(database, conn, case, n, 0)
                cpu = children_cpu() - cpu
                jobs = n + WARMUP
                rows = await admin.fetch(STATEMENTS_ROWS_SQL, PROBE_NORMALIZED)
                nested = await admin.fetch(NESTED_SQL, PROBE_NORMALIZED)
                steps = await conn.fetch(STEPS_SQL)
                await admin.execute("SELECT pg_stat_force_next_flush()")
                after = await admin.fetchrow(ROLLBACKS_SQL)
                report(case, jobs, 1e6 / result.rate, rows, steps)
                print(f"  worker processes' CPU, start-up included: {cpu * 1e6 / jobs:.0f} us/job")
                print("  inside the functions:")
                statements(jobs, nested)
                print(
                    f"  rolled back {after[0] - before[0]} transactions,"
                    f" {after[1] - before[1]} deadlocks"
                )
        finally:
            await conn.close()
            await admin.close()


def children_cpu() -> float:
    """CPU seconds of this process's ended children (the worker processes, once reaped)."""
    times = os.times()
    return times.children_user + times.children_system


def report(
    case: str,
    jobs: int,
    wall_us: float,
    rows: Sequence[asyncpg.Record],
    steps: Sequence[asyncpg.Record],
) -> None:
    server_us = sum(row["total_exec_time"] for row in rows) * 1000 / jobs
    print(
        f"\n{case}: {1e6 / wall_us:,.0f} jobs/s, wall {wall_us:.0f} us/job,"
        f" server execution {server_us:.0f} us/job"
    )
    statements(jobs, rows)
    for status, label in (("successful", "held"), ("picked", "re-claim")):
        gaps = [float(s["us"]) for s in steps if s["status"] == status]
        if gaps:
            cuts = statistics.quantiles(gaps, n=10)
            print(
                f"  {label:<9} median {statistics.median(gaps) / 1000:6.1f} ms,"
                f" p10 {cuts[0] / 1000:6.1f} ms, p90 {cuts[-1] / 1000:6.1f} ms"
                f" over {len(gaps)} steps"
            )


def statements(jobs: int, rows: Sequence[asyncpg.Record]) -> None:
    print(f"  {'calls/job':>9} {'rows/call':>9} {'us/job':>7}  statement")
    for row in rows[:SHOWN]:
        per_call = row["rows"] / row["calls"] if row["calls"] else 0.0
        print(
            f"  {row['calls'] / jobs:>9.2f} {per_call:>9.2f}"
            f" {row['total_exec_time'] * 1000 / jobs:>7.0f}  {row['query']}"
        )


async def run(quick: bool) -> None:
    await measure(QUICK_JOBS if quick else JOBS)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "wide drain parts", run))
