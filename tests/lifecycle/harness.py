"""Lifecycle test harness: a private PostgreSQL cluster and real worker processes."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

import asyncpg
import msgspec
import psycopg
from genji_api.migrate import apply_plan
from genji_devstack.cluster import PgCluster
from genji_worker.recorder import EffectRecorder
from payload_samples import SAMPLES

T = TypeVar("T")

WORKER_ROLE = "genjishimada_queue_worker"
DATABASE = "genjishimada"

# Short intervals with the production ordering and policies.
FAST_SETTINGS = {
    "GENJI_QUEUE_POLLING_FALLBACK": "0.5",
    "GENJI_QUEUE_STALE_HEARTBEAT": "1.5",
    "GENJI_QUEUE_DRAIN_TIMEOUT": "1",
    "GENJI_QUEUE_RECONNECT_INITIAL": "0.1",
    "GENJI_QUEUE_RECONNECT_MAX": "0.5",
    "GENJI_QUEUE_COMMAND_TIMEOUT": "3",
    "GENJI_QUEUE_RETRY_DELAYS": "0.1,0.1,0.1",
    "GENJI_QUEUE_HANDLER_TIMEOUT": "30",
    "GENJI_QUEUE_DEPENDENCY_WAIT": "0.2",
    "GENJI_QUEUE_MAX_RECLAIMS": "2",
}


async def eventually(
    probe: Callable[[], Awaitable[T | None]], deadline: float = 20.0, what: str = ""
) -> T:
    """Poll an observable condition until it yields a truthy value or the deadline passes."""
    end = time.monotonic() + deadline
    while True:
        value = await probe()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {deadline}s waiting for {what or probe}")
        await asyncio.sleep(0.05)


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    log_path: Path

    def signal(self, signum: int) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signum)

    def wait(self, timeout: float = 20.0) -> int:
        return self.process.wait(timeout)

    def log(self) -> str:
        return self.log_path.read_text()


@dataclass
class Stack:
    """One test's own cluster, migrated database, effect recorder and worker processes."""

    cluster: PgCluster
    tmp: Path
    workers: list[Worker] = field(default_factory=list)

    @property
    def dsn(self) -> str:
        return self.cluster.dsn(DATABASE)

    @property
    def worker_dsn(self) -> str:
        return self.cluster.dsn(DATABASE, user=WORKER_ROLE)

    @property
    def recorder(self) -> EffectRecorder:
        return EffectRecorder(self.tmp / "effects")

    def start_worker(self, owner: str = "bot", **settings: str) -> Worker:
        env = {
            **os.environ,
            **FAST_SETTINGS,
            **settings,
            "QUEUE_DATABASE_URL": self.worker_dsn if owner == "bot" else self.dsn,
            "GENJI_RECORDER_DIR": str(self.recorder.directory),
            "GENJI_TALLY_DSN": self.dsn,
            "PYTHONUNBUFFERED": "1",
        }
        log_path = self.tmp / f"worker-{len(self.workers)}.log"
        with log_path.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "genji_worker", owner],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = Worker(process, log_path)
        self.workers.append(worker)
        return worker

    def stop_all(self) -> None:
        for worker in self.workers:
            if worker.process.poll() is None:
                worker.process.kill()
                worker.process.wait(10)

    async def connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.dsn)

    async def sql(self, query: str, *args: Any) -> Any:
        conn = await self.connect()
        try:
            return await conn.fetch(query, *args)
        finally:
            await conn.close()

    async def value(self, query: str, *args: Any) -> Any:
        rows = await self.sql(query, *args)
        return rows[0][0] if rows else None

    async def enqueue(
        self,
        key: str,
        event: str = "api.xp.grant",
        entity: str | None = None,
        depends_on: UUID | None = None,
        payload: dict[str, Any] | None = None,
    ) -> UUID:
        body = (
            payload
            if payload is not None
            else {
                "grant_id": abs(hash(key)) % 100000,
                "user_id": 1,
                "amount": 5,
                "type": "Completion",
                "previous_amount": 0,
                "new_amount": 5,
            }
        )
        rows = await self.sql(
            "SELECT job_id FROM enqueue_job($1, $2::jsonb, $3, $4, $5)",
            event,
            json.dumps(body),
            key,
            entity,
            depends_on,
        )
        return UUID(str(rows[0]["job_id"]))

    async def corrupt_payload(self, job_id: UUID, field: str, value: Any) -> None:
        """Rewrite one field of a queued job's stored payload, as a row written before payload
        contracts were enforced: enqueue_job itself now refuses such a payload."""
        await self.sql(
            """UPDATE pgqueuer q
               SET payload = convert_to(jsonb_set(convert_from(q.payload, 'UTF8')::jsonb,
                                                  ARRAY['payload', $2], $3::jsonb)::text, 'UTF8')
               FROM jobs j WHERE j.queue_job_id = q.id AND j.id = $1""",
            job_id,
            field,
            json.dumps(value),
        )

    async def status(self, job_id: UUID) -> str:
        return str(await self.value("SELECT status FROM job_public_status($1)", job_id))

    async def job(self, job_id: UUID) -> asyncpg.Record:
        rows = await self.sql(
            """SELECT j.*, q.status::text AS queue_status, q.attempts, q.queue_manager_id
               FROM jobs j LEFT JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = $1""",
            job_id,
        )
        return rows[0]

    async def tally(self, job_id: UUID) -> int:
        return int(
            await self.value(
                "SELECT coalesce(sum(applied), 0) FROM effect_tally WHERE job_id = $1", job_id
            )
        )

    async def until_status(self, job_id: UUID, wanted: str, deadline: float = 20.0) -> None:
        async def probe() -> bool:
            return await self.status(job_id) == wanted

        await eventually(probe, deadline, f"job {job_id} to be {wanted}")

    async def until_recorded(
        self, effect: str, stage: str = "start", count: int = 1, deadline: float = 20.0
    ) -> None:
        async def probe() -> bool:
            return self.recorder.count(effect, stage) >= count

        await eventually(probe, deadline, f"{count} x {effect}/{stage} in the recorder")

    async def job_logs(self, queue_job_id: int) -> list[str]:
        rows = await self.sql(
            "SELECT status::text FROM pgqueuer_log WHERE job_id = $1 ORDER BY id", queue_job_id
        )
        return [r[0] for r in rows]


def new_stack(tmp: Path) -> Stack:
    cluster = PgCluster()
    cluster.init()
    cluster.start()
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {DATABASE}")
    apply_plan(cluster.dsn(DATABASE))
    with psycopg.connect(cluster.dsn(DATABASE), autocommit=True) as conn:
        # Stands in for a domain table the API mutates on behalf of a job.
        conn.execute("CREATE TABLE effect_tally (job_id uuid PRIMARY KEY, applied int NOT NULL)")
    return Stack(cluster=cluster, tmp=tmp)


def sample(event: str) -> dict[str, Any]:
    """A valid payload for `event`, as JSON-ready data."""
    decoded: dict[str, Any] = msgspec.to_builtins(SAMPLES[event])
    return decoded
