"""Fan-out enqueue throughput: enqueue_jobs against stock PGQueuer's batch enqueue, 100 jobs per
call, on a durable server and with fsync off.

Every case commits one business transaction of BATCH jobs on one asyncpg connection:

  enqueue_jobs     the API's building block as fan-out producers call it (SDK payload structs;
                   durable identity in public.jobs, the PGQueuer row and its log row per job)
  stock batch      pgqueuer Queries.enqueue with lists of entrypoints, payloads and priorities
                   (queue rows and log rows), the same JSON payload bytes
  identity floor   the three rows per job any transactional design must write, for the whole
                   batch in one plain statement: no validation, no function, no entity ordering
  enqueue_job loop the API's enqueue_job once per job in the same transaction, which
                   enqueue_jobs replaces

Cases run interleaved in rounds (the order rotates every round) and each timed run starts from
empty tables. Throughput is the median over rounds; latency percentiles pool every timed
transaction of a case.

Run as root (the cluster drops to the postgres user itself):

    uv run --frozen python bench/enqueue_batch.py [--quick]
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass

import asyncpg
from common import (
    DURABLE,
    EVENT,
    FSYNC_OFF,
    MODES,
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
)
from enqueue import IDENTITY_GUARD, Result
from genji_api.queue.enqueue import JobRequest, enqueue_job, enqueue_jobs
from genji_sdk import encode_payload
from genji_sdk.payloads.xp import XpGrantEvent
from pgqueuer.queries import Queries

DATABASE = "genji_bench_enqueue_batch"
BATCH = 100
RESET_SQL = "TRUNCATE pgqueuer, pgqueuer_log, public.jobs CASCADE"

IDENTITY_FLOOR_SQL = """
WITH identity AS (
    INSERT INTO public.jobs (id, action, status, queue_job_id, event_key, payload_hash,
                             schema_version, event_seq)
    SELECT gen_random_uuid(), 'api.xp.grant', 'queued', nextval('pgqueuer_id_seq'), k, '-', 1,
           nextval('job_event_seq')
    FROM unnest($1::text[]) AS k
    RETURNING queue_job_id, event_key
), queued AS (
    INSERT INTO pgqueuer (id, priority, entrypoint, payload, status)
    SELECT i.queue_job_id, 0, 'api.xp.grant', b.body, 'queued'
    FROM identity i JOIN unnest($1::text[], $2::bytea[]) AS b(k, body) ON b.k = i.event_key
    RETURNING id, entrypoint, priority
)
INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
SELECT id, 'queued', entrypoint, priority FROM queued
"""

ENQUEUE_JOBS = "enqueue_jobs"
STOCK = "stock batch enqueue"
FLOOR = "identity floor"
LOOP = "enqueue_job loop"
VS_STOCK_TARGET = 1.0


@dataclass(frozen=True)
class Sizes:
    calls: int
    rounds: int
    warmup: int


SIZES = {
    DURABLE: Sizes(calls=20, rounds=6, warmup=5),
    FSYNC_OFF: Sizes(calls=30, rounds=5, warmup=5),
}
QUICK = {DURABLE: Sizes(calls=5, rounds=2, warmup=2), FSYNC_OFF: Sizes(calls=5, rounds=2, warmup=2)}

# One step is one committed transaction of BATCH jobs numbered from its argument.
Step = Callable[[int], Awaitable[None]]


@dataclass(frozen=True)
class Case:
    name: str
    step: Step
    unguarded: bool = False
    """Writes queue rows without the enqueue functions, which the schema refuses
    (sql/recovery_guards.sql): its runs lift that one trigger."""


def grant(n: int) -> XpGrantEvent:
    return XpGrantEvent(
        grant_id=n, user_id=n, amount=5, type="Completion", previous_amount=0, new_amount=5
    )


def build_cases(conn: asyncpg.Connection) -> list[Case]:
    queries = Queries.from_asyncpg_connection(conn)

    def requests(first: int) -> list[JobRequest]:
        return [
            JobRequest(grant(n), f"bench:{n}", f"user:{n}") for n in range(first, first + BATCH)
        ]

    async def batch(first: int) -> None:
        jobs = requests(first)
        async with conn.transaction():
            await enqueue_jobs(conn, jobs)

    async def stock(first: int) -> None:
        bodies = [encode_payload(EVENT, grant(n)) for n in range(first, first + BATCH)]
        async with conn.transaction():
            await queries.enqueue([EVENT] * BATCH, bodies, [0] * BATCH)

    async def floor(first: int) -> None:
        numbers = range(first, first + BATCH)
        keys = [f"floor:{n}" for n in numbers]
        bodies = [encode_payload(EVENT, grant(n)) for n in numbers]
        async with conn.transaction():
            await conn.execute(IDENTITY_FLOOR_SQL, keys, bodies)

    async def loop(first: int) -> None:
        jobs = requests(first)
        async with conn.transaction():
            for job in jobs:
                await enqueue_job(
                    conn,
                    payload=job.payload,
                    event_key=job.event_key,
                    entity_key=job.entity_key,
                )

    return [
        Case(ENQUEUE_JOBS, batch),
        Case(STOCK, stock, unguarded=True),
        Case(FLOOR, floor, unguarded=True),
        Case(LOOP, loop),
    ]


async def timed_run(
    database: Database, conn: asyncpg.Connection, case: Case, firsts: Iterator[int], calls: int
) -> tuple[float, list[int]]:
    """`calls` transactions of `case` from empty tables; (jobs/s, latency per call in ns)."""
    await conn.execute(RESET_SQL)
    await database.checkpoint()
    toggle = "DISABLE" if case.unguarded else "ENABLE"
    await conn.execute(f"ALTER TABLE pgqueuer {toggle} TRIGGER {IDENTITY_GUARD}")
    latencies: list[int] = []
    clock = time.perf_counter_ns
    began = clock()
    for first in itertools.islice(firsts, calls):
        start = clock()
        await case.step(first)
        latencies.append(clock() - start)
    elapsed = clock() - began
    rows = await conn.fetchval("SELECT count(*) FROM pgqueuer")
    if rows != calls * BATCH:
        raise RuntimeError(f"{case.name}: expected {calls * BATCH} queue rows, found {rows}")
    return calls * BATCH / (elapsed / 1e9), latencies


async def run_cases(
    database: Database, conn: asyncpg.Connection, cases: Sequence[Case], sizes: Sizes
) -> dict[str, Result]:
    results = {case.name: Result() for case in cases}
    firsts = itertools.count(0, BATCH)
    for case in cases:
        await timed_run(database, conn, case, firsts, sizes.warmup)
    for index in range(sizes.rounds):
        shift = index % len(cases)
        line = []
        for case in [*cases[shift:], *cases[:shift]]:
            rate, latencies = await timed_run(database, conn, case, firsts, sizes.calls)
            results[case.name].rates.append(rate)
            results[case.name].latencies_ns.extend(latencies)
            line.append(f"{case.name} {rate:,.0f}/s")
        print(f"  round {index + 1}: " + ", ".join(line), flush=True)
    await conn.execute(RESET_SQL)
    await conn.execute(f"ALTER TABLE pgqueuer ENABLE TRIGGER {IDENTITY_GUARD}")
    return results


async def measure(mode: Mode, sizes: Sizes) -> dict[str, Result]:
    with bench_cluster(mode) as cluster:
        database = await migrated_database(cluster, DATABASE)
        conn = await database.connect()
        try:
            print(f"\n{await describe_server(conn, mode)}; one asyncpg connection over TCP")
            print(
                f"  {BATCH} jobs per transaction, {sizes.calls} transactions per case per round, "
                f"{sizes.rounds} rounds"
            )
            return await run_cases(database, conn, build_cases(conn), sizes)
        finally:
            await conn.close()


def print_results(mode: Mode, results: dict[str, Result]) -> None:
    rounds = max(len(result.rates) for result in results.values())
    columns = [
        "median jobs/s",
        *(f"round {i + 1}" for i in range(rounds)),
        "p50 ms/call",
        "p99 ms/call",
    ]
    rows = [
        [
            name,
            f"{result.median_rate:,.0f}",
            *(f"{rate:,.0f}" for rate in result.rates),
            f"{result.latency_ms(50):.2f}",
            f"{result.latency_ms(99):.2f}",
        ]
        for name, result in results.items()
    ]
    print_table(f"batch enqueue, {BATCH} jobs per call [{mode.label}]", columns, rows, "case")


RATIOS = [(ENQUEUE_JOBS, STOCK), (ENQUEUE_JOBS, FLOOR), (FLOOR, STOCK), (ENQUEUE_JOBS, LOOP)]


def report(by_mode: dict[Mode, dict[str, Result]]) -> list[Target]:
    for mode, results in by_mode.items():
        print_results(mode, results)
    rows = [
        [
            f"{top} / {bottom}",
            *(f"{paired_ratio(res[top].rates, res[bottom].rates):.2f}" for res in by_mode.values()),
        ]
        for top, bottom in RATIOS
    ]
    title = "throughput ratio (median of the per-round ratios)"
    print_table(title, [mode.label for mode in by_mode], rows, "ratio")
    targets = [
        Target(
            f"enqueue_jobs / {STOCK} ({BATCH} per call)",
            mode,
            paired_ratio(results[ENQUEUE_JOBS].rates, results[STOCK].rates),
            VS_STOCK_TARGET,
            "x",
        )
        for mode, results in by_mode.items()
    ]
    print_targets(targets)
    return targets


async def run(quick: bool) -> list[Target]:
    sizes = QUICK if quick else SIZES
    by_mode = {mode: await measure(mode, sizes[mode]) for mode in MODES}
    return report(by_mode)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "enqueue_batch", run))
