"""Where enqueue_job's time goes: a ladder from the identity floor to the API's enqueue_job, one
part added per step, with fsync off so that only statement and CPU cost remain.

  identity floor      the three rows as one plain statement (as in enqueue.py)
  + columns & hash    the same rows with every column enqueue_job fills: entity key and
                      dedupe key (two more index entries), execute_after, the payload parsed
                      as jsonb and its sha256 hash, ON CONFLICT on the identity
  - log row           without the 'queued' log row, which enqueue_job no longer writes (a new
                      job's log begins at its first claim); the steps below write none either
  + entity lock       the per-entity advisory lock that orders producers of one entity
  + envelope          the queue payload built as enqueue_job stores it (job id, event, key,
                      version, payload, trace): everything enqueue_job writes, in one plain
                      statement
  + PL/pgSQL call     that one statement as the body of a PL/pgSQL function: the cost of
                      calling a function at all
  SQL enqueue_job     the real PL/pgSQL function through its genji_queue wrapper: adds the
                      event registry and contract lookups, argument checks and the contract's
                      jsonpath, in the one statement that writes a fresh job
  API enqueue_job     genji_api's wrapper: adds payload encoding with type check, trace
                      sanitizing and the transaction check in Python

The steps take turns transaction by transaction (the first to go rotates), so every step
meets the same machine, disk and table sizes; the tables are truncated between rounds. A
step's extra cost per job is its median transaction time (p50, which scheduling stalls on a
shared machine move least) minus the step before's; the shares say how much of the way from
the floor to the API's enqueue_job each part explains. Then the one-statement function and
the real one run once more each, alone and five times as long, their backend sampled with Linux perf
(backend_profile.py): the CPU of a transaction by stage of statement processing, which
splits the real function's extra cost into executor start-up, run, triggers and the rest.

    uv run --frozen python bench/enqueue_parts.py [--quick]
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from collections.abc import Sequence

import asyncpg
from backend_profile import Profile, print_profile, sampled
from common import (
    EVENT,
    FSYNC_OFF,
    Database,
    bench_cluster,
    bench_main,
    describe_server,
    migrated_database,
    percentile,
    print_table,
)
from enqueue import (
    ENTITY_KEY,
    IDENTITY_FLOOR_SQL,
    PAYLOAD,
    SCRATCH_DDL,
    Case,
    Sizes,
    Step,
    reset,
)
from genji_api.queue.enqueue import enqueue_job as api_enqueue_job
from genji_queue.enqueue import enqueue_job_raw
from genji_sdk import REGISTRY, encode_payload

DATABASE = "genji_bench_enqueue_parts"
SIZES = Sizes(n=400, rounds=4, warmup=50)
QUICK = Sizes(n=150, rounds=2, warmup=20)

_IDENTITY = """
    INSERT INTO public.jobs (id, action, status, queue_job_id, event_key, payload_hash,
                             schema_version, entity_key, event_seq)
    SELECT gen_random_uuid(), 'api.xp.grant', 'queued', nextval('pgqueuer_id_seq'), $1,
           encode(sha256(convert_to($2::jsonb::text, 'UTF8')), 'hex'), 1, $3,
           nextval('job_event_seq')
    {source}
    ON CONFLICT (action, event_key) DO NOTHING
    RETURNING id, queue_job_id
"""
_QUEUED = """
    INSERT INTO pgqueuer (id, priority, entrypoint, payload, execute_after, dedupe_key, status)
    SELECT queue_job_id, 0, 'api.xp.grant', {payload}, now(), 'api.xp.grant:' || $1, 'queued'
    FROM identity
"""
_RETURNING = "RETURNING id, entrypoint, priority"
_LOGGED = """
INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority)
SELECT id, 'queued', entrypoint, priority FROM queued
"""
_PLAIN_PAYLOAD = "convert_to($2::jsonb::text, 'UTF8')"
_ENVELOPE = """convert_to(jsonb_build_object(
        'job_id', id, 'event_name', 'api.xp.grant', 'event_key', $1, 'payload_version', 1,
        'payload', $2::jsonb, 'trace', '{}'::jsonb)::text, 'UTF8')"""
_LOCK = "WITH locked AS (SELECT pg_advisory_xact_lock(hashtextextended('genji.entity:' || $3, 0)))"


def _ladder_sql(lock: bool, envelope: bool, logged: bool = False) -> str:
    identity = _IDENTITY.format(source="FROM locked" if lock else "")
    queued = _QUEUED.format(payload=_ENVELOPE if envelope else _PLAIN_PAYLOAD)
    head = f"{_LOCK}, identity AS ({identity})" if lock else f"WITH identity AS ({identity})"
    if logged:
        return f"{head}, queued AS ({queued} {_RETURNING}){_LOGGED}"
    return f"{head} {queued}"


COLUMNS_SQL = _ladder_sql(lock=False, envelope=False, logged=True)
UNLOGGED_SQL = _ladder_sql(lock=False, envelope=False)
LOCKED_SQL = _ladder_sql(lock=True, envelope=False)
INLINED_SQL = _ladder_sql(lock=True, envelope=True)
# PL/pgSQL reads $1..$3 in a body as the function's arguments.
ONE_STATEMENT_DDL = f"""
CREATE FUNCTION bench_one_statement(text, text, text) RETURNS void LANGUAGE plpgsql
AS $body$ BEGIN {INLINED_SQL}; END $body$"""
ONE_STATEMENT_SQL = "SELECT bench_one_statement($1, $2, $3)"


def build_ladder(conn: asyncpg.Connection) -> list[Case]:
    body = encode_payload(EVENT, PAYLOAD)
    text = body.decode()
    version = REGISTRY.get(EVENT).payload_version

    def plain(sql: str, prefix: str) -> Step:
        async def step(seq: int) -> None:
            async with conn.transaction():
                await conn.execute(sql, f"{prefix}:{seq}", text, ENTITY_KEY)

        return step

    async def floor(seq: int) -> None:
        async with conn.transaction():
            await conn.execute(IDENTITY_FLOOR_SQL, f"floor:{seq}", body)

    async def sql_function(seq: int) -> None:
        async with conn.transaction():
            await enqueue_job_raw(
                conn,
                event_name=EVENT,
                payload_json=text,
                event_key=f"sql:{seq}",
                entity_key=ENTITY_KEY,
                schema_version=version,
                trace={},
            )

    async def api(seq: int) -> None:
        async with conn.transaction():
            await api_enqueue_job(
                conn,
                event_name=EVENT,
                payload=PAYLOAD,
                event_key=f"api:{seq}",
                entity_key=ENTITY_KEY,
            )

    return [
        Case("identity floor", floor, "public.jobs"),
        Case("+ columns & hash", plain(COLUMNS_SQL, "columns"), "public.jobs"),
        Case("- log row", plain(UNLOGGED_SQL, "unlogged"), "public.jobs"),
        Case("+ entity lock", plain(LOCKED_SQL, "locked"), "public.jobs"),
        Case("+ envelope", plain(INLINED_SQL, "inlined"), "public.jobs"),
        Case("+ PL/pgSQL call", plain(ONE_STATEMENT_SQL, "function"), "public.jobs"),
        Case("SQL enqueue_job", sql_function, "public.jobs"),
        Case("API enqueue_job", api, "public.jobs"),
    ]


async def interleaved(
    database: Database, conn: asyncpg.Connection, steps: Sequence[Case], sizes: Sizes
) -> dict[str, list[float]]:
    """Microseconds per transaction of each step, the steps taking turns transaction by
    transaction (rotating who goes first) so that all of them meet the same conditions."""
    samples: dict[str, list[float]] = {step.name: [] for step in steps}
    seqs = itertools.count()
    clock = time.perf_counter_ns
    for index in range(1 + sizes.rounds):
        await reset(database, conn)
        count = sizes.warmup if index == 0 else sizes.n
        for i in range(count):
            shift = i % len(steps)
            for step in [*steps[shift:], *steps[:shift]]:
                began = clock()
                await step.step(next(seqs))
                if index:
                    samples[step.name].append((clock() - began) / 1000)
    return samples


# The steps whose backend is sampled: the one-statement function and the real one, each for
# this many times the round's transactions, for enough samples.
PROFILED = ("+ PL/pgSQL call", "SQL enqueue_job")
PROFILED_RUNS = 5


async def profiled(
    database: Database, conn: asyncpg.Connection, steps: Sequence[Case], sizes: Sizes
) -> list[tuple[str, Profile]]:
    """Each step of PROFILED alone, its backend sampled."""
    profiles = []
    seqs = itertools.count()
    for step in steps:
        if step.name not in PROFILED:
            continue
        await reset(database, conn)
        for _ in range(sizes.warmup):
            await step.step(next(seqs))
        async with sampled(conn.get_server_pid()) as profile:
            for _ in range(PROFILED_RUNS * sizes.n):
                await step.step(next(seqs))
        profiles.append((step.name, profile))
    return profiles


def report(samples: dict[str, list[float]]) -> None:
    p50 = {name: statistics.median(values) for name, values in samples.items()}
    names = list(p50)
    gap = p50[names[-1]] - p50[names[0]]
    rows = []
    for before, name in zip([None, *names], names, strict=False):
        added = p50[name] - p50[before] if before else 0.0
        rows.append(
            [
                name,
                f"{p50[name]:.0f}",
                f"{added:+.0f}" if before else "",
                f"{added / gap:.0%}" if before and gap > 0 else "",
                f"{percentile(samples[name], 90):.0f}",
            ]
        )
    columns = ["p50 us/job", "step adds us", "share of gap", "p90 us/job"]
    print_table(f"enqueue_job's parts [{FSYNC_OFF.label}]", columns, rows, "step")
    print(
        f"\n{names[0]} -> {names[-1]}: {gap:+.0f} us per job at the median; "
        f"p50 {names[0]} / p50 {names[-1]} = {p50[names[0]] / p50[names[-1]]:.2f}"
    )


async def run(quick: bool) -> None:
    sizes = QUICK if quick else SIZES
    with bench_cluster(FSYNC_OFF) as cluster:
        database = await migrated_database(cluster, DATABASE)
        conn = await database.connect()
        try:
            await conn.execute(SCRATCH_DDL)
            await conn.execute(ONE_STATEMENT_DDL)
            print(f"\n{await describe_server(conn, FSYNC_OFF)}; one asyncpg connection")
            print(f"  {sizes.n} transactions per step per round, {sizes.rounds} rounds")
            ladder = build_ladder(conn)
            samples = await interleaved(database, conn, ladder, sizes)
            profiles = await profiled(database, conn, ladder, sizes)
        finally:
            await conn.close()
    report(samples)
    for name, profile in profiles:
        runs = PROFILED_RUNS * sizes.n
        print_profile(f"{name}, {runs} transactions", profile, runs)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "enqueue parts", run))
