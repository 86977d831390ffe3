"""Recovery times with real worker processes (`python -m genji_devstack.recorder_worker bot`,
recorder handlers)
on a durable server.

  sigkill   two workers; the job's announce effect hangs, the worker running it is SIGKILLed,
            and the clock runs until job_public_status says the job succeeded, finished by the
            other worker. The database's stale-heartbeat threshold decides most of it.
  restart   one worker; kill -9 of the whole cluster, start(), an enqueue retried until it
            commits, and the time from start() returning until that job succeeded.

Only the durable mode is measured: a crashed server with synchronous_commit off may lose
commits it had acknowledged, which production never runs with, and both times are set by the
configured intervals rather than by statement cost.

    uv run --frozen python bench/recovery.py [--quick]
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import asyncpg
from common import (
    DEADLINE_S,
    DURABLE,
    OWNER,
    POLL_S,
    Database,
    Target,
    bench_cluster,
    bench_main,
    describe_server,
    enqueue_xp,
    migrated_database,
    print_table,
    print_targets,
    until,
)
from genji_devstack.fleet import WorkerExited, WorkerFleet, WorkerProcess
from genji_devstack.recorder import EffectRecorder
from genji_queue.status import job_public_status

DATABASE = "genji_bench_recovery"
# Worker processes: production defaults except the polling fallback (seconds).
PROCESS_SETTINGS = {"GENJI_QUEUE_POLLING_FALLBACK": "1"}
# The database's stale-heartbeat threshold for these runs (queue_settings), seconds.
STALE_HEARTBEAT_S = 5
RESTART_TARGET_S = 3.0
SAMPLES = {"sigkill": 3, "restart": 3}
QUICK = {"sigkill": 1, "restart": 2}


@dataclass(frozen=True)
class KillSample:
    victim: int
    heartbeat_age: float
    restarted_after: float
    succeeded_after: float
    finished_by: int


@dataclass(frozen=True)
class RestartSample:
    restart_s: float
    enqueued_after: float
    succeeded_after: float


@dataclass
class Recovery:
    database: Database
    fleet: WorkerFleet
    recorder: EffectRecorder

    async def spawn(self) -> WorkerProcess:
        return await self.fleet.spawn(OWNER, self.database.worker_dsn, PROCESS_SETTINGS)

    def recorded(self, job_id: UUID, effect: str, stage: str) -> list[Mapping[str, Any]]:
        key = str(job_id)
        return [
            e
            for e in self.recorder.events()
            if e["job_id"] == key and e["effect"] == effect and e["stage"] == stage
        ]


async def job_status(conn: asyncpg.Connection, job_id: UUID) -> str:
    return (await job_public_status(conn, job_id)).status


async def kill_sample(
    bench: Recovery, conn: asyncpg.Connection, live: list[WorkerProcess], i: int
) -> KillSample:
    bench.recorder.command("*:announce", "hang")
    job_id = await enqueue_xp(conn, f"sigkill:{i}", i)

    async def hanging() -> list[Mapping[str, Any]]:
        return bench.recorded(job_id, "announce", "start")

    started = await until(hanging, "a worker to start the announce effect")
    victim = next(w for w in live if w.pid == int(started[0]["pid"]))
    heartbeat_age = float(
        await conn.fetchval(
            """SELECT extract(epoch FROM now() - q.heartbeat)
               FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id WHERE j.id = $1""",
            job_id,
        )
    )
    os.kill(victim.pid, signal.SIGKILL)
    killed = time.monotonic()
    bench.recorder.command("*:announce", "complete")

    restarted_after: float | None = None
    end = killed + DEADLINE_S
    while await job_status(conn, job_id) != "succeeded":
        if restarted_after is None and any(
            e["pid"] != victim.pid for e in bench.recorded(job_id, "before", "start")
        ):
            restarted_after = time.monotonic() - killed
        if time.monotonic() > end:
            raise TimeoutError(f"job {job_id} not succeeded {DEADLINE_S:.0f}s after the kill")
        await asyncio.sleep(POLL_S * 4)
    succeeded_after = time.monotonic() - killed
    finished = bench.recorded(job_id, "after", "done")
    victim.wait(10)
    live.remove(victim)
    return KillSample(
        victim=victim.pid,
        heartbeat_age=heartbeat_age,
        restarted_after=restarted_after if restarted_after is not None else succeeded_after,
        succeeded_after=succeeded_after,
        finished_by=int(finished[-1]["pid"]) if finished else 0,
    )


async def measure_sigkill(bench: Recovery, samples: int) -> list[KillSample]:
    conn = await bench.database.connect()
    live = [await bench.spawn(), await bench.spawn()]
    results: list[KillSample] = []
    try:
        for i in range(samples):
            sample = await kill_sample(bench, conn, live, i)
            results.append(sample)
            took = sample.succeeded_after
            print(f"  sigkill {i + 1}: succeeded {took:.2f}s after the kill", flush=True)
            if i + 1 < samples:
                live.append(await bench.spawn())
    finally:
        await conn.close()
        for worker in live:
            worker.stop()
    return results


async def connect_retrying(database: Database) -> asyncpg.Connection:
    end = time.monotonic() + DEADLINE_S
    while True:
        try:
            return await asyncpg.connect(database.dsn, timeout=5)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            if time.monotonic() > end:
                raise
            await asyncio.sleep(POLL_S)


async def restart_sample(bench: Recovery, worker: WorkerProcess, i: int) -> RestartSample:
    cluster = bench.database.cluster
    crashed = time.monotonic()
    await asyncio.to_thread(cluster.kill9)
    await asyncio.to_thread(cluster.start)
    started = time.monotonic()
    conn = await connect_retrying(bench.database)
    try:
        job_id = await enqueue_xp(conn, f"restart:{i}", i)
        enqueued_after = time.monotonic() - started

        async def succeeded() -> bool:
            if not worker.alive():
                raise WorkerExited(f"worker {worker.pid} exited:\n{worker.log_tail()}")
            return await job_status(conn, job_id) == "succeeded"

        await until(succeeded, f"job {job_id} to succeed after the restart", interval=POLL_S)
        return RestartSample(started - crashed, enqueued_after, time.monotonic() - started)
    finally:
        await conn.close()


async def warm_up(bench: Recovery, worker: WorkerProcess) -> None:
    """Run one job through `worker`, so the crash finds it serving, not starting up."""
    conn = await bench.database.connect()
    try:
        job_id = await enqueue_xp(conn, "restart:warm-up", 0)

        async def succeeded() -> bool:
            return await job_status(conn, job_id) == "succeeded"

        await until(succeeded, f"worker {worker.pid} to run the warm-up job")
    finally:
        await conn.close()


async def measure_restart(bench: Recovery, samples: int) -> list[RestartSample]:
    worker = await bench.spawn()
    results: list[RestartSample] = []
    try:
        await warm_up(bench, worker)
        for i in range(samples):
            sample = await restart_sample(bench, worker, i)
            results.append(sample)
            took = sample.succeeded_after
            print(f"  restart {i + 1}: succeeded {took:.2f}s after start()", flush=True)
    finally:
        worker.stop()
    return results


def report(kills: list[KillSample], restarts: list[RestartSample]) -> list[Target]:
    polling = PROCESS_SETTINGS["GENJI_QUEUE_POLLING_FALLBACK"]
    print_table(
        f"worker SIGKILL -> job succeeded by the other worker (stale heartbeat "
        f"{STALE_HEARTBEAT_S} s, polling fallback {polling} s)",
        ["killed pid", "heartbeat age s", "rerun start s", "succeeded s", "finished by"],
        [
            [
                str(index),
                str(s.victim),
                f"{s.heartbeat_age:.2f}",
                f"{s.restarted_after:.2f}",
                f"{s.succeeded_after:.2f}",
                str(s.finished_by),
            ]
            for index, s in enumerate(kills, 1)
        ],
        "sample",
    )
    print_table(
        "cluster kill -9 + start() -> next job succeeded (clock from start() returning)",
        ["crash+start s", "enqueued s", "succeeded s"],
        [
            [
                str(index),
                f"{s.restart_s:.2f}",
                f"{s.enqueued_after:.2f}",
                f"{s.succeeded_after:.2f}",
            ]
            for index, s in enumerate(restarts, 1)
        ],
        "sample",
    )
    worst = max(sample.succeeded_after for sample in restarts)
    targets = [Target("worst job after restart succeeded", DURABLE, worst, RESTART_TARGET_S, "s")]
    print_targets(targets)
    return targets


async def run(quick: bool) -> list[Target]:
    samples = QUICK if quick else SAMPLES
    workdir = Path(tempfile.mkdtemp(prefix="genji-bench-recovery-", dir="/tmp"))
    try:
        with bench_cluster(DURABLE) as cluster:
            database = await migrated_database(cluster, DATABASE)
            conn = await database.connect()
            try:
                print(f"\n{await describe_server(conn, DURABLE)}")
                await conn.execute(
                    "UPDATE queue_settings SET stale_heartbeat = make_interval(secs => $1)",
                    STALE_HEARTBEAT_S,
                )
            finally:
                await conn.close()
            print(f"  sigkill: {samples['sigkill']} samples, restart: {samples['restart']}")
            recorder = EffectRecorder(workdir / "effects")
            fleet = WorkerFleet(workdir, recorder.directory, observer_dsn=database.dsn)
            bench = Recovery(database, fleet, recorder)
            try:
                kills = await measure_sigkill(bench, samples["sigkill"])
                restarts = await measure_restart(bench, samples["restart"])
            except BaseException:
                print(fleet.log_tails(), file=sys.stderr)
                raise
            finally:
                fleet.stop_all()
        return report(kills, restarts)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(bench_main(__doc__, "recovery", run))
