"""Producer-side enqueue throughput: enqueue_job against stock PGQueuer and a bare INSERT.

One throwaway PostgreSQL cluster, one migrated database, one asyncpg connection. Every case
commits one business transaction per job:

  enqueue_job   the Python wrapper as producers call it (durable job identity in public.jobs,
                the PGQueuer row and its log row)
  stock         pgqueuer Queries.enqueue (queue row and log row), same JSON payload bytes
  bare insert   one INSERT of the same bytes into a scratch table, the floor for a commit
  identity floor  the three rows any transactional design must write (public.jobs identity,
                queue row, log row) as one plain statement: no validation, no function, no
                entity ordering; the floor for enqueue_job

Cases run interleaved in rounds (the order rotates every round) and each timed run starts from
empty tables, so table and index growth or a slow round cannot favour one case. Throughput is
the median over rounds; latency percentiles pool every timed transaction of a case.

Run as root (the cluster drops to the postgres user itself):

    just bench
    uv run --frozen python bench/enqueue.py --n 5000
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field

import asyncpg
from common import at_least, checkpoint, migrated_database
from genji_api.queue.enqueue import enqueue_job
from genji_devstack.cluster import PgCluster
from genji_sdk import encode_payload
from genji_sdk.payloads.xp import XpGrantEvent
from pgqueuer.queries import Queries

DATABASE = "genji_bench"
EVENT = "api.xp.grant"
PAYLOAD = XpGrantEvent(
    grant_id=1, user_id=42, amount=5, type="Completion", previous_amount=0, new_amount=5
)
ENTITY_KEY = f"user:{PAYLOAD.user_id}"

SCRATCH_DDL = "CREATE TABLE bench_rows (id bigserial PRIMARY KEY, payload bytea)"
# public.jobs is referenced by the effect and operations tables, which stay empty here.
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

Step = Callable[[int], Awaitable[None]]


@dataclass(frozen=True)
class Case:
    name: str
    step: Step
    # Table and row count one step leaves behind, checked after every timed run.
    table: str


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

    async def bare(_seq: int) -> None:
        async with conn.transaction():
            await conn.execute("INSERT INTO bench_rows (payload) VALUES ($1)", body)

    async def identity_floor(seq: int) -> None:
        async with conn.transaction():
            await conn.execute(IDENTITY_FLOOR_SQL, f"floor:{seq}", body)

    return [
        Case("enqueue_job", durable, "public.jobs"),
        Case("stock PGQueuer enqueue", stock, "pgqueuer"),
        Case("bare INSERT", bare, "bench_rows"),
        Case("identity floor", identity_floor, "public.jobs"),
    ]


async def reset(cluster: PgCluster, conn: asyncpg.Connection) -> None:
    await conn.execute(RESET_SQL)
    await checkpoint(cluster)


async def timed_run(
    cluster: PgCluster, conn: asyncpg.Connection, case: Case, seqs: Iterator[int], n: int
) -> tuple[float, list[int]]:
    """Run `n` transactions of `case` from empty tables; returns (jobs/s, latencies in ns)."""
    await reset(cluster, conn)
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


async def server_facts(cluster: PgCluster, conn: asyncpg.Connection) -> str:
    version = await conn.fetchval("SHOW server_version")
    return f"PostgreSQL {version}, {cluster.durability}"


async def bench(cluster: PgCluster, n: int, rounds: int, warmup: int) -> dict[str, Result]:
    dsn = await migrated_database(cluster, DATABASE)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(SCRATCH_DDL)
        print(f"{await server_facts(cluster, conn)}; one asyncpg connection over TCP")
        print(f"{n} transactions per case per round, {rounds} rounds, {warmup} warm-up")
        cases = build_cases(conn)
        results = {case.name: Result() for case in cases}
        seqs = itertools.count()
        for case in cases:
            await timed_run(cluster, conn, case, seqs, warmup)
        for index in range(rounds):
            shift = index % len(cases)
            order = cases[shift:] + cases[:shift]
            line = []
            for case in order:
                rate, latencies = await timed_run(cluster, conn, case, seqs, n)
                results[case.name].rates.append(rate)
                results[case.name].latencies_ns.extend(latencies)
                line.append(f"{case.name} {rate:,.0f}/s")
            print(f"round {index + 1}: " + ", ".join(line))
        await reset(cluster, conn)
        return results
    finally:
        await conn.close()


def report(results: dict[str, Result]) -> None:
    width = max(len(name) for name in results)
    rounds = max(len(result.rates) for result in results.values())
    columns = ["median jobs/s", *(f"round {i + 1}" for i in range(rounds)), "p50 ms", "p99 ms"]
    header = f"{'case':<{width}}" + "".join(f"  {title:>13}" for title in columns)
    print()
    print(header)
    print("-" * len(header))
    for name, result in results.items():
        cells = [
            f"{result.median_rate:,.0f}",
            *(f"{rate:,.0f}" for rate in result.rates),
            f"{result.latency_ms(50):.3f}",
            f"{result.latency_ms(99):.3f}",
        ]
        print(f"{name:<{width}}" + "".join(f"  {cell:>13}" for cell in cells))
    durable, stock, bare, floor = (result.median_rate for result in results.values())
    durable_vs_stock = durable / stock
    print()
    print(f"enqueue_job / stock PGQueuer enqueue: {durable_vs_stock:.2f}")
    print(f"stock PGQueuer enqueue / bare INSERT: {stock / bare:.2f}")
    print(f"identity floor / stock PGQueuer enqueue: {floor / stock:.2f} (the best any design")
    print("  that writes the job identity in the business transaction can reach)")
    print(f"enqueue_job / identity floor: {durable / floor:.2f}")
    verdict = "MET" if durable_vs_stock >= 1.0 else "NOT MET"
    print(f"target enqueue_job at least as fast as stock PGQueuer enqueue: {verdict}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    positive = at_least(1)

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--n", type=positive, default=2000, help="transactions per case per round")
    parser.add_argument("--rounds", type=positive, default=3, help="interleaved rounds")
    parser.add_argument("--warmup", type=positive, default=200, help="warm-up transactions")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    began = time.monotonic()
    # Never crashed: without flushes the numbers measure statements and round trips.
    with PgCluster(durable=False) as cluster:
        results = asyncio.run(bench(cluster, args.n, args.rounds, args.warmup))
    report(results)
    print(f"\ntotal {time.monotonic() - began:.1f}s including cluster start and migrations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
