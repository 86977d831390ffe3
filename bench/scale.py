"""Scale: the queue's per-operation costs on databases holding 10k, 100k and 1M finished jobs
(and, separately, 10k ready jobs), as ratios to an empty database, on a durable server.

One cluster holds one database per size, cloned from one migrated database and filled
set-based as the owner (scale_fill.py), then VACUUM ANALYZE. Every database also holds the
same 1000 jobs due for pruning and 50 live jobs, so pruning and live status reads do the same
work everywhere; "empty" holds nothing else. In rounds (the order of the databases rotates),
each database is measured in turn:

  enqueue            the API's enqueue_job of api.xp.grant for a user with history, one
                     committed transaction per call
  claim -> start     enqueue commit to handler entry through an idle in-process fenced
                     QueueSupervisor (worker login), as latency.py
  entity check       the claim of one ready job whose user has history (genji_queue's
                     queue_claim wrapper: the claim, its start gate and the entity-ordering
                     check), as the owner, rolled back
  status historical  the public status (job_public_status) of a random finished job
  status live        the public status of a random queued job
  retention run      the scheduled retention run pruning the 1000 due jobs, rolled back

Times are client-side milliseconds per call, except the status reads. A status read is a few
tens of microseconds of server work inside a longer round trip, whose length depends on where
the scheduler put the client and that database's backend, and it moved this ratio by more than
the target allows (bench/README.md). Each status read is therefore timed by the server: the
execution time of the statement genji_queue sends, run under EXPLAIN ANALYZE. A slow spell of
the shared machine lasts seconds, so the status reads of all databases are taken in turn in
small batches after each round: every database then reads under the same spells. A ratio is the
median over rounds of the round's median at that size over the round's median on the empty
database. Target: every ratio at the largest history below 1.3x.

    uv run --frozen python bench/scale.py [--quick]
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from uuid import UUID, uuid4

import asyncpg
import msgspec
from common import (
    DEADLINE_S,
    DURABLE,
    EVENT,
    POLL_S,
    Database,
    Target,
    bench_cluster,
    bench_main,
    describe_server,
    in_process_supervisor,
    migrated_database,
    paired_ratio,
    percentile,
    print_table,
    print_targets,
    until,
)
from genji_api.queue.enqueue import enqueue_job
from genji_devstack import roles
from genji_queue.calls import CALLS
from genji_queue.claim import queue_claim
from genji_queue.retention_schedule import queue_retention_run
from genji_queue.status import job_public_status
from genji_sdk import JobContext
from latency import grant
from scale_fill import DUE, ENTITIES, HISTORY_KEY, fill_history, fill_ready

BASE = "genji_bench_scale"
LIVE = 50
LIVE_KEY = "live:"
TARGET = 1.3
EMPTY = "empty"
BACKLOG = "backlog"

ENQUEUE = "enqueue"
START = "claim -> start"
ENTITY = "entity check"
STATUS_OLD = "status historical"
STATUS_LIVE = "status live"
PRUNE = "retention run"
OPERATIONS = (ENQUEUE, START, ENTITY, STATUS_OLD, STATUS_LIVE, PRUNE)

REGISTERED_SQL = "SELECT EXISTS (SELECT 1 FROM queue_workers WHERE manager_id = $1)"
BOT_BUSY_SQL = "SELECT EXISTS (SELECT 1 FROM pgqueuer WHERE entrypoint = $1)"
CLAIM_WAIT = timedelta(seconds=2)
RETENTION = timedelta(days=30)
IDS_SQL = "SELECT id FROM public.jobs WHERE event_key = ANY($1::text[])"
IDLE_GAP_S = 0.03
STATUS_BATCHES = 20
# A status read, timed by the server: the statement genji_queue sends, under EXPLAIN ANALYZE.
STATUS_EXPLAIN = (
    "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON, FORMAT JSON) " + CALLS["job_public_status"].statement
)
WARMUP = 2
TEMPLATE_SESSIONS_SQL = """
SELECT pg_terminate_backend(pid) FROM pg_stat_activity
WHERE datname = $1 AND pid <> pg_backend_pid()
"""


@dataclass(frozen=True)
class Sizes:
    history: tuple[int, ...]
    backlog: int
    rounds: int
    samples: dict[str, int]


SIZES = Sizes(
    history=(10_000, 100_000, 1_000_000),
    backlog=10_000,
    rounds=5,
    samples={ENQUEUE: 60, START: 20, ENTITY: 40, STATUS_OLD: 400, STATUS_LIVE: 400, PRUNE: 6},
)
QUICK = Sizes(
    history=(2_000, 20_000),
    backlog=2_000,
    rounds=2,
    samples={ENQUEUE: 20, START: 8, ENTITY: 10, STATUS_OLD: 30, STATUS_LIVE: 30, PRUNE: 2},
)


@dataclass
class Arena:
    """One database of the run and what was measured on it, per operation and round."""

    label: str
    database: Database
    conn: asyncpg.Connection | None = None
    """The owner's connection, held for the whole run as a long-lived producer holds it."""
    history_ids: list[UUID] = field(default_factory=list)
    live_ids: list[UUID] = field(default_factory=list)
    rounds: dict[str, list[list[float]]] = field(
        default_factory=lambda: {op: [] for op in OPERATIONS}
    )

    @property
    def owner(self) -> asyncpg.Connection:
        assert self.conn is not None, "prepare() connects every arena"
        return self.conn

    def pooled(self, op: str) -> list[float]:
        return [value for one in self.rounds[op] for value in one]


def label(n: int) -> str:
    return f"{n // 1_000_000}M" if n >= 1_000_000 else f"{n // 1000}k"


class Keys:
    """Fresh event keys and users with history across the whole run."""

    def __init__(self) -> None:
        self.next = 0
        self.rng = random.Random(7)

    def take(self) -> tuple[int, str]:
        self.next += 1
        return self.next, f"user:{self.rng.randrange(ENTITIES)}"


async def enqueue_calls(arena: Arena, keys: Keys, n: int) -> list[float]:
    conn = arena.owner
    times = []
    for _ in range(n):
        k, entity = keys.take()
        began = time.perf_counter()
        async with conn.transaction():
            await enqueue_job(
                conn,
                event_name=EVENT,
                payload=grant(k),
                event_key=f"scale:enqueue:{k}",
                entity_key=entity,
            )
        times.append((time.perf_counter() - began) * 1000)
    return times


async def claim_to_start(arena: Arena, keys: Keys, n: int) -> list[float]:
    """Commit to handler entry, one job at a time; the worker first runs what enqueue left."""
    waiting: dict[UUID, asyncio.Future[float]] = {}

    async def stamp(payload: msgspec.Struct, context: JobContext) -> None:
        entered = time.monotonic()
        future = waiting.get(context.job_id)
        if future is not None and not future.done():
            future.set_result(entered)

    supervisor = in_process_supervisor(arena.database, stamp)
    runner = asyncio.create_task(supervisor.run())
    conn = arena.owner
    try:

        async def registered() -> bool:
            manager = supervisor.manager_id
            return manager is not None and bool(await conn.fetchval(REGISTERED_SQL, manager))

        async def idle() -> bool:
            return not await conn.fetchval(BOT_BUSY_SQL, EVENT)

        await until(registered, "the in-process supervisor to register")
        await until(idle, "the enqueued jobs to run", interval=POLL_S)
        await asyncio.sleep(IDLE_GAP_S)
        loop = asyncio.get_running_loop()
        times = []
        for _ in range(n):
            k, entity = keys.take()
            async with conn.transaction():
                job = await enqueue_job(
                    conn,
                    event_name=EVENT,
                    payload=grant(k),
                    event_key=f"scale:start:{k}",
                    entity_key=entity,
                )
                future: asyncio.Future[float] = loop.create_future()
                waiting[job.id] = future
            committed = time.monotonic()
            entered = await asyncio.wait_for(future, 10)
            del waiting[job.id]
            times.append((entered - committed) * 1000)
            await until(idle, "the job to complete", interval=POLL_S)
            await asyncio.sleep(IDLE_GAP_S)
        return times
    finally:
        supervisor.request_stop()
        await asyncio.wait_for(runner, DEADLINE_S)


async def entity_checks(arena: Arena, keys: Keys, n: int) -> list[float]:
    conn = arena.owner
    times = []
    for _ in range(n):
        k, entity = keys.take()
        tx = conn.transaction()
        await tx.start()
        try:
            await enqueue_job(
                conn,
                event_name=EVENT,
                payload=grant(k),
                event_key=f"scale:entity:{k}",
                entity_key=entity,
            )
            began = time.perf_counter()
            claimed = (await queue_claim(conn, uuid4(), [EVENT], 1, 2, CLAIM_WAIT)).jobs
            times.append((time.perf_counter() - began) * 1000)
            if len(claimed) != 1:
                raise RuntimeError(f"{arena.label}: the gate did not let the job run")
        finally:
            await tx.rollback()
    return times


async def status_reads(arena: Arena, ids: Sequence[UUID], n: int, seed: int) -> list[float]:
    """The server's execution time of genji_queue's job_public_status statement, per read."""
    rng = random.Random(seed)
    conn = arena.owner
    times = []
    for _ in range(n):
        job = rng.choice(ids)
        explained = json.loads(await conn.fetchval(STATUS_EXPLAIN, job))[0]
        if explained["Plan"]["Actual Rows"] != 1:
            raise RuntimeError(f"{arena.label}: the status of job {job} was not one row")
        times.append(explained["Execution Time"])
    return times


async def retention_runs(arena: Arena, n: int) -> list[float]:
    conn = arena.owner
    times = []
    for _ in range(n):
        tx = conn.transaction()
        await tx.start()
        try:
            began = time.perf_counter()
            done = await queue_retention_run(conn, timedelta(0), RETENTION, 1000, 100)
            times.append((time.perf_counter() - began) * 1000)
            if done.pruned != DUE:
                raise RuntimeError(f"{arena.label}: pruned {done.pruned} jobs, expected {DUE}")
        finally:
            await tx.rollback()
    return times


async def measure_round(arena: Arena, keys: Keys, sizes: Sizes, index: int) -> None:
    """Every operation in turn; the first WARMUP calls of each are not kept."""
    s = {op: WARMUP + count for op, count in sizes.samples.items()}
    measured = {
        ENQUEUE: await enqueue_calls(arena, keys, s[ENQUEUE]),
        START: await claim_to_start(arena, keys, s[START]),
        ENTITY: await entity_checks(arena, keys, s[ENTITY]),
        PRUNE: await retention_runs(arena, s[PRUNE]),
    }
    for op, times in measured.items():
        arena.rounds[op].append(times[WARMUP:])


async def status_round(arenas: Sequence[Arena], sizes: Sizes, index: int) -> None:
    """The status reads of every database in small batches taken in turn: a read costs tens of
    microseconds and a slow spell of the shared machine lasts seconds, so interleaving puts
    every database under the same spells."""
    for op, ids in ((STATUS_OLD, "history_ids"), (STATUS_LIVE, "live_ids")):
        pooled: dict[str, list[float]] = {a.label: [] for a in arenas}
        per_batch = max(sizes.samples[op] // STATUS_BATCHES, 1)
        for batch in range(STATUS_BATCHES):
            for arena in arenas:
                seed = index * STATUS_BATCHES + batch
                times = await status_reads(arena, getattr(arena, ids), WARMUP + per_batch, seed)
                pooled[arena.label] += times[WARMUP:]
        for arena in arenas:
            arena.rounds[op].append(pooled[arena.label])


async def sample_ids(conn: asyncpg.Connection, prefix: str, count: int, n: int) -> list[UUID]:
    rng = random.Random(count)
    picks = [f"{prefix}{rng.randint(1, count)}" for _ in range(n)]
    return [row["id"] for row in await conn.fetch(IDS_SQL, picks)]


async def prepare(arena: Arena, history: int, ready: int) -> None:
    began = time.monotonic()
    conn = arena.conn = await arena.database.connect()
    await fill_history(conn, history)
    await fill_ready(conn, LIVE, LIVE_KEY)
    if ready:
        await fill_ready(conn, ready, "backlog:")
    arena.history_ids = await sample_ids(conn, HISTORY_KEY, history + DUE, 500)
    arena.live_ids = await sample_ids(conn, LIVE_KEY, LIVE, 200)
    live = await job_public_status(conn, arena.live_ids[0])
    if live.status != "queued":
        raise RuntimeError(f"{arena.label}: a live job reads as {live.status}")
    size = await conn.fetchval("SELECT pg_size_pretty(pg_database_size(current_database()))")
    await arena.database.checkpoint()
    took = time.monotonic() - began
    print(f"  {arena.label}: filled in {took:.1f}s, database {size}", flush=True)


async def build(sizes: Sizes, base: Database) -> list[tuple[Arena, int, int]]:
    plan = [(EMPTY, 0, 0), *((label(n), n, 0) for n in sizes.history)]
    plan.append((f"{BACKLOG} {label(sizes.backlog)}", 0, sizes.backlog))
    admin = await base.admin_connect()
    try:
        # The template must have no sessions: the migration's may still be closing.
        await admin.execute(TEMPLATE_SESSIONS_SQL, base.name)
    finally:
        await admin.close()
    arenas = []
    for name, history, ready in plan:
        dbname = f"{BASE}_{name.replace(' ', '_')}"
        admin_dsn = base.cluster.admin_dsn()
        await asyncio.to_thread(roles.create_owned_database, admin_dsn, dbname, base.name)
        arenas.append((Arena(name, Database(base.cluster, dbname)), history, ready))
    return arenas


def report(arenas: Sequence[Arena]) -> list[Target]:
    empty = arenas[0]
    labels = [arena.label for arena in arenas]
    cells = [
        [
            op,
            *(
                f"{statistics.median(a.pooled(op)):.2f} ({percentile(a.pooled(op), 95):.2f})"
                for a in arenas
            ),
        ]
        for op in OPERATIONS
    ]
    print_table("median (p95) ms per call [durable]", labels, cells, "operation")

    def ratio(arena: Arena, op: str) -> float:
        medians = [statistics.median(one) for one in arena.rounds[op]]
        return paired_ratio(medians, [statistics.median(one) for one in empty.rounds[op]])

    rows = [[op, *(f"{ratio(a, op):.2f}" for a in arenas[1:])] for op in OPERATIONS]
    print_table(
        "ratio to the empty database (median of the per-round ratios)",
        labels[1:],
        rows,
        "operation",
    )
    largest = arenas[-2]
    targets = [
        Target(
            f"{op} at {largest.label} / {EMPTY}",
            DURABLE,
            ratio(largest, op),
            TARGET,
            "x",
            ceiling=True,
        )
        for op in OPERATIONS
    ]
    print_targets(targets)
    return targets


async def run(quick: bool) -> list[Target]:
    sizes = QUICK if quick else SIZES
    with bench_cluster(DURABLE) as cluster:
        base = await migrated_database(cluster, BASE)
        conn = await base.connect()
        try:
            print(f"\n{await describe_server(conn, DURABLE)}")
        finally:
            await conn.close()
        built = await build(sizes, base)
        print(f"  filling {', '.join(arena.label for arena, _, _ in built)}", flush=True)
        for arena, history, ready in built:
            await prepare(arena, history, ready)
        arenas = [arena for arena, _, _ in built]
        try:
            return await measure(arenas, sizes)
        finally:
            for arena in arenas:
                if arena.conn is not None:
                    await arena.conn.close()


async def measure(arenas: Sequence[Arena], sizes: Sizes) -> list[Target]:
    keys = Keys()
    print(f"  {sizes.rounds} rounds; per database and round {sizes.samples}", flush=True)
    for index in range(sizes.rounds):
        shift = index % len(arenas)
        for arena in [*arenas[shift:], *arenas[:shift]]:
            await measure_round(arena, keys, sizes, index)
        await status_round(arenas, sizes, index)
        line = ", ".join(f"{a.label} {statistics.median(a.rounds[START][-1]):.1f}" for a in arenas)
        print(f"  round {index + 1}: claim -> start ms {line}", flush=True)
    return report(arenas)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "scale", run))
