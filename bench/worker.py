"""Worker-side queue benchmark: drain throughput, pickup latency and recovery times.

One throwaway PostgreSQL cluster and one migrated database serve four measurements:

  drain      N "api.xp.grant" jobs (distinct entities) drained at the spec settings (batch 1,
             2 active jobs, entrypoint concurrency 1, no-op handler) by the fenced
             QueueSupervisor in this process (worker role) and by stock PGQueuer 1.1.1 in drain
             mode (owner: it deletes rows itself), alternating over rounds; the clock runs
             from start until the pgqueuer table is empty
  latency    commit of the enqueue transaction -> handler entry, with an idle in-process
             supervisor (notification path, not the polling fallback)
  sigkill    SIGKILL of the worker running a job -> the job succeeded by the other worker
             process (the stale-heartbeat threshold decides most of this)
  restart    PostgreSQL crash and restart -> the next job enqueued after start() succeeded by
             the worker process that was running before the crash

Targets are printed as MET / NOT MET; a missed target never fails the command.

Run as root (the cluster drops to the postgres user itself):

    just bench
    uv run --frozen python bench/worker.py --n 2000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

import asyncpg
import msgspec
from common import at_least, checkpoint, migrated_database
from genji_api.queue.enqueue import enqueue_job
from genji_devstack.cluster import PgCluster
from genji_queue.enqueue import enqueue_job as queue_enqueue
from genji_queue.status import job_public_status
from genji_sdk import REGISTRY, JobContext, Owner
from genji_sdk.payloads.xp import XpGrantEvent
from genji_worker.executor import Handler
from genji_worker.recorder import EffectRecorder
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor
from pgqueuer import QueueManager
from pgqueuer.db import AsyncpgDriver
from pgqueuer.models import Job
from pgqueuer.queries import Queries
from pgqueuer.types import QueueExecutionMode

T = TypeVar("T")

DATABASE = "genji_bench_worker"
OWNER: Owner = "bot"
EVENT = "api.xp.grant"

RESET_SQL = "TRUNCATE pgqueuer, pgqueuer_log, public.jobs CASCADE"
QUEUE_BUSY_SQL = "SELECT EXISTS (SELECT 1 FROM pgqueuer)"

# The spec settings for the in-process supervisor: production defaults, shorter polling.
SUPERVISOR_SETTINGS = WorkerSettings(polling_fallback=timedelta(seconds=0.5))
STOCK_POLLING = timedelta(seconds=0.5)
# Worker processes: production defaults except these (seconds).
PROCESS_SETTINGS = {"GENJI_QUEUE_POLLING_FALLBACK": "1"}
# The database's stale-heartbeat threshold for the kill runs (queue_settings), seconds.
KILL_STALE_HEARTBEAT = 5

POLL = 0.005
PROCESS_POLL = 0.02
IDLE_GAP = 0.03
LATENCY_WARMUP = 5
LATENCY_TARGET_MS = 20.0
DRAIN_TARGET = 0.9
RESTART_TARGET_S = 3.0
DEADLINE_S = 120.0


def xp_body(n: int) -> str:
    return json.dumps(
        {
            "grant_id": n,
            "user_id": n,
            "amount": 5,
            "type": "Completion",
            "previous_amount": 0,
            "new_amount": 5,
        }
    )


def verdict(met: bool) -> str:
    return "MET" if met else "NOT MET"


async def until(
    probe: Callable[[], Awaitable[T | None]],
    what: str,
    deadline: float = DEADLINE_S,
    interval: float = PROCESS_POLL,
) -> T:
    """Poll `probe` until it returns something truthy."""
    end = time.monotonic() + deadline
    while True:
        value = await probe()
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"gave up after {deadline:.0f}s waiting for {what}")
        await asyncio.sleep(interval)


@dataclass
class Bench:
    cluster: PgCluster
    workdir: Path

    @property
    def dsn(self) -> str:
        return self.cluster.owner_dsn(DATABASE)

    @property
    def worker_dsn(self) -> str:
        return self.cluster.worker_dsn(DATABASE)

    async def connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.dsn)

    async def worker_connect(self) -> asyncpg.Connection:
        # As the worker process connects (genji_worker.process.serve).
        return await asyncpg.connect(
            self.worker_dsn, server_settings={"application_name": f"genji-{OWNER}-worker"}
        )


async def enqueue_one(conn: asyncpg.Connection, key: str, n: int) -> UUID:
    """One committed enqueue_job call; returns the job id."""
    enqueued = await queue_enqueue(
        conn, event_name=EVENT, payload_json=xp_body(n), event_key=key, entity_key=f"user:{key}"
    )
    return enqueued.job.id


async def job_status(conn: asyncpg.Connection, job_id: UUID) -> str:
    return (await job_public_status(conn, job_id)).status


def bot_handlers(handler: Handler) -> dict[str, Handler]:
    """`handler` for every event the bot owns (the supervisor insists on all of them)."""
    return {spec.name: handler for spec in REGISTRY.owned_by(OWNER)}


async def noop(payload: msgspec.Struct, context: JobContext) -> None:
    return None


async def stop_supervisor(supervisor: QueueSupervisor, runner: asyncio.Task[None]) -> None:
    supervisor.request_stop()
    await asyncio.wait_for(runner, DEADLINE_S)


# -- 1. drain throughput -------------------------------------------------------------------------


@dataclass
class DrainResult:
    rates: list[float] = field(default_factory=list)

    @property
    def median_rate(self) -> float:
        return statistics.median(self.rates)


async def fill_queue(bench: Bench, conn: asyncpg.Connection, n: int) -> None:
    await conn.execute(RESET_SQL)
    async with conn.transaction():
        for i in range(n):
            await queue_enqueue(
                conn,
                event_name=EVENT,
                payload_json=xp_body(i),
                event_key=f"drain:{i}",
                entity_key=f"user:{i}",
            )
    await checkpoint(bench.cluster)


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
        await asyncio.sleep(POLL)


async def drain_fenced(bench: Bench, probe: asyncpg.Connection) -> float:
    supervisor = QueueSupervisor(
        owner=OWNER,
        handlers=bot_handlers(noop),
        connect=bench.worker_connect,
        settings=SUPERVISOR_SETTINGS,
    )
    began = time.perf_counter()
    runner = asyncio.create_task(supervisor.run())
    try:
        await until_drained(probe, runner)
        return time.perf_counter() - began
    finally:
        await stop_supervisor(supervisor, runner)


async def drain_stock(bench: Bench, probe: asyncpg.Connection) -> float:
    began = time.perf_counter()
    # Stock PGQueuer deletes completed rows itself, which the restricted worker login may not
    # do (its writes go through the fenced functions), so the baseline runs as the owner and
    # skips row-level security: a conservative baseline for the fenced worker.
    conn = await bench.connect()
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


Drain = Callable[[Bench, asyncpg.Connection], Awaitable[float]]


async def bench_drain(bench: Bench, n: int, rounds: int) -> dict[str, DrainResult]:
    cases: list[tuple[str, Drain]] = [
        ("fenced QueueSupervisor", drain_fenced),
        ("stock PGQueuer", drain_stock),
    ]
    results = {name: DrainResult() for name, _ in cases}
    conn = await bench.connect()
    try:
        for index in range(rounds):
            order = cases if index % 2 == 0 else cases[::-1]
            line = []
            for name, drain in order:
                await fill_queue(bench, conn, n)
                elapsed = await drain(bench, conn)
                done = await conn.fetchval(
                    "SELECT count(*) FROM pgqueuer_log WHERE status = 'successful'"
                )
                if done != n:
                    raise RuntimeError(f"{name}: {done} of {n} jobs logged successful")
                results[name].rates.append(n / elapsed)
                line.append(f"{name} {n / elapsed:,.0f}/s")
            print(f"  drain round {index + 1}: " + ", ".join(line), flush=True)
        await conn.execute(RESET_SQL)
    finally:
        await conn.close()
    return results


# -- 2. commit -> handler start ------------------------------------------------------------------


async def bench_latency(bench: Bench, samples: int) -> list[float]:
    """Milliseconds from enqueue commit to handler entry, one job at a time."""
    waiting: dict[UUID, asyncio.Future[float]] = {}

    async def stamp(payload: msgspec.Struct, context: JobContext) -> None:
        entered = time.monotonic()
        future = waiting.get(context.job_id)
        if future is not None and not future.done():
            future.set_result(entered)

    supervisor = QueueSupervisor(
        owner=OWNER,
        handlers=bot_handlers(stamp),
        connect=bench.worker_connect,
        settings=SUPERVISOR_SETTINGS,
    )
    runner = asyncio.create_task(supervisor.run())
    conn = await bench.connect()
    try:

        async def registered() -> bool:
            return supervisor.manager_id is not None and bool(
                await conn.fetchval(
                    "SELECT 1 FROM queue_workers WHERE manager_id = $1", supervisor.manager_id
                )
            )

        await until(registered, "the in-process supervisor to start")
        await asyncio.sleep(0.3)
        loop = asyncio.get_running_loop()
        latencies: list[float] = []
        for i in range(LATENCY_WARMUP + samples):
            async with conn.transaction():
                job = await enqueue_job(
                    conn,
                    event_name=EVENT,
                    payload=XpGrantEvent(
                        grant_id=i,
                        user_id=i,
                        amount=5,
                        type="Completion",
                        previous_amount=0,
                        new_amount=5,
                    ),
                    event_key=f"latency:{i}",
                    entity_key=f"user:latency:{i}",
                )
                future: asyncio.Future[float] = loop.create_future()
                waiting[job.id] = future
            committed = time.monotonic()
            entered = await asyncio.wait_for(future, 10)
            del waiting[job.id]
            if i >= LATENCY_WARMUP:
                latencies.append((entered - committed) * 1000)

            async def idle() -> bool:
                return not await conn.fetchval(QUEUE_BUSY_SQL)

            await until(idle, "the job to complete", interval=POLL)
            # Let the worker finish its post-completion dequeue and go back to waiting.
            await asyncio.sleep(IDLE_GAP)
        await conn.execute(RESET_SQL)
        return latencies
    finally:
        await conn.close()
        await stop_supervisor(supervisor, runner)


def percentile(values: Sequence[float], cut: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[cut - 1]


# -- worker processes ----------------------------------------------------------------------------


@dataclass
class WorkerProcess:
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text().splitlines()[-lines:])
        except FileNotFoundError:
            return ""


@dataclass
class Fleet:
    """`python -m genji_worker bot` processes started by this benchmark."""

    bench: Bench
    recorder: EffectRecorder
    workers: list[WorkerProcess] = field(default_factory=list)

    def environment(self) -> dict[str, str]:
        inherited = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith("GENJI_QUEUE_") and key != "GENJI_TALLY_DSN"
        }
        return {
            **inherited,
            **PROCESS_SETTINGS,
            "QUEUE_DATABASE_URL": self.bench.worker_dsn,
            "GENJI_RECORDER_DIR": str(self.recorder.directory),
            "PYTHONUNBUFFERED": "1",
        }

    def launch(self) -> WorkerProcess:
        log_path = self.bench.workdir / f"worker-{len(self.workers)}.log"
        with log_path.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "genji_worker", OWNER],
                env=self.environment(),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = WorkerProcess(process, log_path)
        self.workers.append(worker)
        return worker

    async def spawn(self) -> WorkerProcess:
        """Start one worker and wait until it has registered and is listening."""
        worker = self.launch()
        conn = await self.bench.connect()
        try:

            async def registered() -> bool:
                if not worker.alive():
                    raise RuntimeError(f"worker {worker.pid} exited:\n{worker.log_tail()}")
                return bool(
                    await conn.fetchval("SELECT 1 FROM queue_workers WHERE pid = $1", worker.pid)
                )

            await until(registered, f"worker {worker.pid} to register")
        finally:
            await conn.close()
        # Registration comes just before the manager starts listening.
        await asyncio.sleep(0.3)
        return worker

    def stop(self, worker: WorkerProcess) -> None:
        if worker.alive():
            worker.process.terminate()
            try:
                worker.process.wait(10)
            except subprocess.TimeoutExpired:
                worker.process.kill()
        worker.process.wait(10)

    def stop_all(self) -> None:
        for worker in self.workers:
            self.stop(worker)

    def dump_logs(self) -> None:
        for worker in self.workers:
            print(f"--- worker {worker.pid} log tail ---\n{worker.log_tail()}", file=sys.stderr)


# -- 3. SIGKILL -> completion by another worker --------------------------------------------------


@dataclass(frozen=True)
class KillSample:
    victim: int
    heartbeat_age: float
    restarted_after: float
    succeeded_after: float
    finished_by: int


def recorded(
    recorder: EffectRecorder, job_id: UUID, effect: str, stage: str
) -> list[Mapping[str, Any]]:
    key = str(job_id)
    return [
        e
        for e in recorder.events()
        if e["job_id"] == key and e["effect"] == effect and e["stage"] == stage
    ]


async def bench_sigkill(fleet: Fleet, samples: int) -> list[KillSample]:
    recorder = fleet.recorder
    conn = await fleet.bench.connect()
    await conn.execute(
        "UPDATE queue_settings SET stale_heartbeat = make_interval(secs => $1)",
        KILL_STALE_HEARTBEAT,
    )
    live = [await fleet.spawn(), await fleet.spawn()]
    results: list[KillSample] = []
    try:
        for i in range(samples):
            recorder.command("*:announce", "hang")
            job_id = await enqueue_one(conn, f"sigkill:{i}", i)

            async def hanging(job_id: UUID = job_id) -> list[Mapping[str, Any]]:
                return recorded(recorder, job_id, "announce", "start")

            started = await until(hanging, "a worker to start the announce effect")
            victim_pid = int(started[0]["pid"])
            victim = next(w for w in live if w.pid == victim_pid)
            heartbeat_age = float(
                await conn.fetchval(
                    """SELECT extract(epoch FROM now() - q.heartbeat)
                       FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id WHERE j.id = $1""",
                    job_id,
                )
            )
            os.kill(victim_pid, signal.SIGKILL)
            killed = time.monotonic()
            recorder.command("*:announce", "complete")

            restarted_after: float | None = None
            end = killed + DEADLINE_S
            while await job_status(conn, job_id) != "succeeded":
                if restarted_after is None and any(
                    e["pid"] != victim_pid for e in recorded(recorder, job_id, "before", "start")
                ):
                    restarted_after = time.monotonic() - killed
                if time.monotonic() > end:
                    raise TimeoutError(f"job {job_id} not succeeded {DEADLINE_S:.0f}s after kill")
                await asyncio.sleep(PROCESS_POLL)
            succeeded_after = time.monotonic() - killed
            finished = recorded(recorder, job_id, "after", "done")
            results.append(
                KillSample(
                    victim=victim_pid,
                    heartbeat_age=heartbeat_age,
                    restarted_after=restarted_after
                    if restarted_after is not None
                    else succeeded_after,
                    succeeded_after=succeeded_after,
                    finished_by=int(finished[-1]["pid"]) if finished else 0,
                )
            )
            print(
                f"  sigkill sample {i + 1}: succeeded {succeeded_after:.2f}s after the kill",
                flush=True,
            )
            victim.process.wait(10)
            live.remove(victim)
            if i + 1 < samples:
                live.append(await fleet.spawn())
    finally:
        await conn.close()
        for worker in live:
            fleet.stop(worker)
    return results


# -- 4. cluster restart -> next job succeeded ----------------------------------------------------


@dataclass(frozen=True)
class RestartSample:
    restart_s: float
    enqueued_after: float
    succeeded_after: float


async def connect_retrying(bench: Bench) -> asyncpg.Connection:
    end = time.monotonic() + DEADLINE_S
    while True:
        try:
            return await asyncpg.connect(bench.dsn, timeout=5)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            if time.monotonic() > end:
                raise
            await asyncio.sleep(POLL)


async def bench_restart(fleet: Fleet, samples: int) -> list[RestartSample]:
    bench = fleet.bench
    worker = await fleet.spawn()
    results: list[RestartSample] = []
    try:
        for i in range(samples):
            crashed = time.monotonic()
            await asyncio.to_thread(bench.cluster.kill9)
            await asyncio.to_thread(bench.cluster.start)
            started = time.monotonic()
            conn = await connect_retrying(bench)
            try:
                job_id = await enqueue_one(conn, f"restart:{i}", i)
                enqueued_after = time.monotonic() - started

                async def succeeded(conn: asyncpg.Connection = conn, job_id: UUID = job_id) -> bool:
                    if not worker.alive():
                        raise RuntimeError(f"worker {worker.pid} exited:\n{worker.log_tail()}")
                    return await job_status(conn, job_id) == "succeeded"

                await until(succeeded, f"job {job_id} to succeed after the restart", interval=POLL)
                succeeded_after = time.monotonic() - started
            finally:
                await conn.close()
            results.append(RestartSample(started - crashed, enqueued_after, succeeded_after))
            print(
                f"  restart sample {i + 1}: succeeded {succeeded_after:.2f}s after start()",
                flush=True,
            )
            await asyncio.sleep(0.5)
    finally:
        fleet.stop(worker)
    return results


# -- report --------------------------------------------------------------------------------------


@dataclass
class Report:
    n: int
    drain: dict[str, DrainResult]
    latencies_ms: list[float]
    kills: list[KillSample]
    restarts: list[RestartSample]

    def print(self) -> None:
        self._drain()
        self._latency()
        self._kills()
        self._restarts()

    def _drain(self) -> None:
        width = max(len(name) for name in self.drain)
        rounds = max(len(result.rates) for result in self.drain.values())
        columns = ["median jobs/s", *(f"round {i + 1}" for i in range(rounds))]
        header = f"{'drain ' + str(self.n) + ' jobs':<{width}}" + "".join(
            f"  {title:>13}" for title in columns
        )
        print()
        print(header)
        print("-" * len(header))
        for name, result in self.drain.items():
            cells = [f"{result.median_rate:,.0f}", *(f"{rate:,.0f}" for rate in result.rates)]
            print(f"{name:<{width}}" + "".join(f"  {cell:>13}" for cell in cells))
        fenced, stock = (result.median_rate for result in self.drain.values())
        ratio = fenced / stock
        print()
        print(f"fenced / stock PGQueuer drain: {ratio:.2f}")
        met = ratio >= DRAIN_TARGET
        print(f"target fenced drain at least {DRAIN_TARGET:.1f}x stock: {verdict(met)}")

    def _latency(self) -> None:
        p50 = percentile(self.latencies_ms, 50)
        p99 = percentile(self.latencies_ms, 99)
        print()
        print(
            f"commit -> handler start, idle fenced supervisor ({len(self.latencies_ms)} samples, "
            f"{LATENCY_WARMUP} warm-up)"
        )
        print(f"  p50 {p50:.2f} ms  p99 {p99:.2f} ms  max {max(self.latencies_ms):.2f} ms")
        met = p50 < LATENCY_TARGET_MS
        print(f"target p50 below {LATENCY_TARGET_MS:.0f} ms: {verdict(met)}")

    def _kills(self) -> None:
        stale = KILL_STALE_HEARTBEAT
        polling = PROCESS_SETTINGS["GENJI_QUEUE_POLLING_FALLBACK"]
        print()
        print(
            f"worker SIGKILL -> job succeeded by the other worker "
            f"(stale heartbeat threshold {stale} s, polling fallback {polling} s)"
        )
        header = (
            f"{'sample':<8}{'killed pid':>12}{'heartbeat age':>16}"
            f"{'rerun start s':>16}{'succeeded s':>14}{'finished by':>14}"
        )
        print(header)
        print("-" * len(header))
        for index, sample in enumerate(self.kills, 1):
            print(
                f"{index:<8}{sample.victim:>12}{sample.heartbeat_age:>15.2f}s"
                f"{sample.restarted_after:>16.2f}{sample.succeeded_after:>14.2f}"
                f"{sample.finished_by:>14}"
            )

    def _restarts(self) -> None:
        print()
        print("cluster kill -9 + start() -> next job succeeded (clock starts when start() returns)")
        header = f"{'sample':<8}{'crash+start s':>15}{'enqueued s':>12}{'succeeded s':>14}"
        print(header)
        print("-" * len(header))
        for index, sample in enumerate(self.restarts, 1):
            print(
                f"{index:<8}{sample.restart_s:>15.2f}{sample.enqueued_after:>12.2f}"
                f"{sample.succeeded_after:>14.2f}"
            )
        worst = max(sample.succeeded_after for sample in self.restarts)
        met = worst < RESTART_TARGET_S
        print(f"target every sample below {RESTART_TARGET_S:.0f} s (worst {worst:.2f} s): ", end="")
        print(verdict(met))


# -- entry point ---------------------------------------------------------------------------------


async def run(cluster: PgCluster, args: argparse.Namespace) -> Report:
    await migrated_database(cluster, DATABASE)
    workdir = Path(tempfile.mkdtemp(prefix="genji-bench-worker-", dir="/tmp"))
    bench = Bench(cluster, workdir)
    fleet = Fleet(bench, EffectRecorder(workdir / "effects"))
    try:
        conn = await bench.connect()
        try:
            version = await conn.fetchval("SHOW server_version")
        finally:
            await conn.close()
        print(f"PostgreSQL {version}, {cluster.durability}")
        print(
            f"drain: {args.n} jobs per case per round, {args.rounds} rounds; latency: "
            f"{args.latency_samples} samples; sigkill: {args.kill_samples}; "
            f"restart: {args.restart_samples}",
            flush=True,
        )
        drain = await bench_drain(bench, args.n, args.rounds)
        latencies = await bench_latency(bench, args.latency_samples)
        print(f"  latency: {len(latencies)} samples taken", flush=True)
        kills = await bench_sigkill(fleet, args.kill_samples)
        restarts = await bench_restart(fleet, args.restart_samples)
        return Report(args.n, drain, latencies, kills, restarts)
    except BaseException:
        fleet.dump_logs()
        raise
    finally:
        fleet.stop_all()
        shutil.rmtree(workdir, ignore_errors=True)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    positive, at_least_two = at_least(1), at_least(2)

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--n", type=positive, default=1000, help="jobs per drain run")
    parser.add_argument("--rounds", type=positive, default=3, help="alternating drain rounds")
    parser.add_argument(
        "--latency-samples", type=at_least_two, default=200, help="commit -> handler samples"
    )
    parser.add_argument("--kill-samples", type=positive, default=3, help="SIGKILL samples")
    parser.add_argument("--restart-samples", type=positive, default=3, help="restart samples")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    began = time.monotonic()
    # Durable: the restart measurement crashes the server, and what was committed must survive.
    with PgCluster(durable=True) as cluster:
        report = asyncio.run(run(cluster, args))
    report.print()
    print(f"\ntotal {time.monotonic() - began:.1f}s including cluster start and migrations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
