"""Producer-side enqueue throughput: enqueue_job against stock PGQueuer, the identity floor and a
bare INSERT, on a durable server and with fsync off.

Every case commits one business transaction per job on one asyncpg connection:

  enqueue_job     the API's wrapper as producers call it (durable job identity in public.jobs,
                  the PGQueuer row and its log row)
  stock           pgqueuer Queries.enqueue (queue row and log row), same JSON payload bytes
  identity floor  the three rows any transactional design must write (public.jobs identity,
                  queue row, log row) as one plain statement: no validation, no function, no
                  entity ordering; the floor for enqueue_job
  bare INSERT     one INSERT of the same bytes into a scratch table, the floor for a commit

Cases run interleaved in rounds (the order rotates every round) and each timed run starts from
empty tables, so table growth or a slow round cannot favour one case. Throughput is the median
over rounds; latency percentiles pool every timed transaction of a case.

Run as root (the cluster drops to the postgres user itself):

    uv run --frozen python bench/enqueue.py [--quick]
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field

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
from genji_api.queue.enqueue import enqueue_job
from genji_sdk import encode_payload
from genji_sdk.payloads.xp import XpGrantEvent
from pgqueuer.queries import Queries

DATABASE = "genji_bench_enqueue"
PAYLOAD = XpGrantEvent(
    grant_id=1, user_id=42, amount=5, type="Completion", previous_amount=0, new_amount=5
)
ENTITY_KEY = f"user:{PAYLOAD.user_id}"

SCRATCH_DDL = "CREATE TABLE bench_rows (id bigserial PRIMARY KEY, payload bytea)"
# public.jobs is referenced by the effect and operations tables, which stay empty here.
IDENTITY_GUARD = "pgqueuer_rows_have_identity"
RESET_SQL = "TRUNCATE pgqueuer, pgqueuer_log, public.jobs, bench_rows CASCADE"

IDENTITY_FLOOR_SQL = """
WITH identity AS (
    INSERT INTO public.jobs (id, action, status, queue_job_id, event_key, payload_hash,
                             schema_version, event_seq)
    VALUES (gen_random_uuid(), 'api.xp.grant', 'queued', nextval('pgqueuer_id_seq'), $1, '-', 1,
            nextval('job_event_seq'))
    RETURNING queue_job_id
), queued AS (
    INSERT INTO pgqueuer (id, priority, entrypoint, payload, status)
    SELECT queue_job_id, 0, 'api.xp.grant', $2, 'queued' FROM identity
    RETURNING id, entrypoint, priority
)
INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
SELECT id, 'queued', entrypoint, priority FROM queued
"""

ENQUEUE_JOB = "enqueue_job"
STOCK = "stock PGQueuer enqueue"
FLOOR = "identity floor"
BARE = "bare INSERT"
# Target ratios, judged on the median throughput of each case.
VS_STOCK_TARGET = 1.0
VS_FLOOR_TARGET = 0.95


@dataclass(frozen=True)
class Sizes:
    n: int
    rounds: int
    warmup: int


# A durable commit waits for a WAL flush (a few ms here), so that mode runs fewer jobs.
SIZES = {DURABLE: Sizes(n=150, rounds=6, warmup=50), FSYNC_OFF: Sizes(n=1000, rounds=5, warmup=200)}
QUICK = {DURABLE: Sizes(n=100, rounds=2, warmup=20), FSYNC_OFF: Sizes(n=500, rounds=2, warmup=50)}

Step = Callable[[int], Awaitable[None]]


@dataclass(frozen=True)
class Case:
    name: str
    step: Step
    # Table and row count one step leaves behind, checked after every timed run.
    table: str
    # The reference cases write queue rows without enqueue_job, which the schema refuses
    # (sql/recovery_guards.sql); their runs lift that one trigger.
    unguarded: bool = False


@dataclass
class Result:
    rates: list[float] = field(default_factory=list)
    latencies_ns: list[int] = field(default_factory=list)

    @property
    def median_rate(self) -> float:
        return statistics.median(self.rates)

    def latency_ms(self, percentile: int) -> float:
        cuts = statistics.quantiles(self.latencies_ns, n=100, method="inclusive")
        return cuts[percentile - 1] / 1e6


def build_cases(conn: asyncpg.Connection) -> list[Case]:
    body = encode_payload(EVENT, PAYLOAD)
    # One Queries per connection, as a long-lived producer holds it.
    queries = Queries.from_asyncpg_connection(conn)

    async def durable(seq: int) -> None:
        async with conn.transaction():
            await enqueue_job(
                conn,
                event_name=EVENT,
                payload=PAYLOAD,
                event_key=f"bench:{seq}",
                entity_key=ENTITY_KEY,
            )

    async def stock(_seq: int) -> None:
        async with conn.transaction():
            await queries.enqueue(EVENT, body)

    async def identity_floor(seq: int) -> None:
        async with conn.transaction():
            await conn.execute(IDENTITY_FLOOR_SQL, f"floor:{seq}", body)

    async def bare(_seq: int) -> None:
        async with conn.transaction():
            await conn.execute("INSERT INTO bench_rows (payload) VALUES ($1)", body)

    return [
        Case(ENQUEUE_JOB, durable, "public.jobs"),
        Case(STOCK, stock, "pgqueuer", unguarded=True),
        Case(FLOOR, identity_floor, "public.jobs", unguarded=True),
        Case(BARE, bare, "bench_rows"),
    ]


async def reset(database: Database, conn: asyncpg.Connection) -> None:
    await conn.execute(RESET_SQL)
    await database.checkpoint()


async def timed_run(
    database: Database, conn: asyncpg.Connection, case: Case, seqs: Iterator[int], n: int
) -> tuple[float, list[int]]:
    """Run `n` transactions of `case` from empty tables; returns (jobs/s, latencies in ns)."""
    await reset(database, conn)
    toggle = "DISABLE" if case.unguarded else "ENABLE"
    await conn.execute(f"ALTER TABLE pgqueuer {toggle} TRIGGER {IDENTITY_GUARD}")
    latencies: list[int] = []
    clock = time.perf_counter_ns
    began = clock()
    for seq in itertools.islice(seqs, n):
        start = clock()
        await case.step(seq)
        latencies.append(clock() - start)
    elapsed = clock() - began
    rows = await conn.fetchval(f"SELECT count(*) FROM {case.table}")
    if rows != n:
        raise RuntimeError(f"{case.name}: expected {n} rows in {case.table}, found {rows}")
    return n / (elapsed / 1e9), latencies


async def run_cases(
    database: Database, conn: asyncpg.Connection, cases: Sequence[Case], sizes: Sizes
) -> dict[str, Result]:
    """Warm every case up, then time them in rounds with a rotating order."""
    results = {case.name: Result() for case in cases}
    seqs = itertools.count()
    for case in cases:
        await timed_run(database, conn, case, seqs, sizes.warmup)
    for index in range(sizes.rounds):
        shift = index % len(cases)
        line = []
        for case in [*cases[shift:], *cases[:shift]]:
            rate, latencies = await timed_run(database, conn, case, seqs, sizes.n)
            results[case.name].rates.append(rate)
            results[case.name].latencies_ns.extend(latencies)
            line.append(f"{case.name} {rate:,.0f}/s")
        print(f"  round {index + 1}: " + ", ".join(line), flush=True)
    await reset(database, conn)
    return results


async def measure(mode: Mode, sizes: Sizes) -> dict[str, Result]:
    with bench_cluster(mode) as cluster:
        database = await migrated_database(cluster, DATABASE)
        conn = await database.connect()
        try:
            await conn.execute(SCRATCH_DDL)
            print(f"\n{await describe_server(conn, mode)}; one asyncpg connection over TCP")
            print(f"  {sizes.n} transactions per case per round, {sizes.rounds} rounds")
            return await run_cases(database, conn, build_cases(conn), sizes)
        finally:
            await conn.close()


def print_results(mode: Mode, results: dict[str, Result]) -> None:
    rounds = max(len(result.rates) for result in results.values())
    columns = ["median jobs/s", *(f"round {i + 1}" for i in range(rounds)), "p50 ms", "p99 ms"]
    rows = [
        [
            name,
            f"{result.median_rate:,.0f}",
            *(f"{rate:,.0f}" for rate in result.rates),
            f"{result.latency_ms(50):.3f}",
            f"{result.latency_ms(99):.3f}",
        ]
        for name, result in results.items()
    ]
    print_table(f"enqueue [{mode.label}]", columns, rows, "case")


RATIOS = [(ENQUEUE_JOB, STOCK), (ENQUEUE_JOB, FLOOR), (FLOOR, STOCK), (STOCK, BARE)]


def ratio(results: dict[str, Result], top: str, bottom: str) -> float:
    return paired_ratio(results[top].rates, results[bottom].rates)


def report(by_mode: dict[Mode, dict[str, Result]]) -> list[Target]:
    for mode, results in by_mode.items():
        print_results(mode, results)
    rows = [
        [f"{top} / {bottom}", *(f"{ratio(res, top, bottom):.2f}" for res in by_mode.values())]
        for top, bottom in RATIOS
    ]
    title = "throughput ratio (median of the per-round ratios)"
    print_table(title, [mode.label for mode in by_mode], rows, "ratio")
    targets: list[Target] = []
    for mode, results in by_mode.items():
        for bottom, limit in ((STOCK, VS_STOCK_TARGET), (FLOOR, VS_FLOOR_TARGET)):
            value = ratio(results, ENQUEUE_JOB, bottom)
            targets.append(Target(f"enqueue_job / {bottom}", mode, value, limit, "x"))
    print_targets(targets)
    return targets


async def run(quick: bool) -> list[Target]:
    sizes = QUICK if quick else SIZES
    by_mode = {mode: await measure(mode, sizes[mode]) for mode in MODES}
    return report(by_mode)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "enqueue", run))
