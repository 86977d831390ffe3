"""Lifecycle test harness: a private PostgreSQL cluster and real worker processes."""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import pwd
import subprocess
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

import asyncpg
import msgspec
import psycopg
from genji_api.migrate import apply_plan
from genji_devstack.cluster import PgCluster
from genji_devstack.fleet import WorkerFleet
from genji_devstack.fleet import WorkerProcess as Worker
from genji_devstack.payload_samples import SAMPLES
from genji_devstack.recorder import EffectRecorder
from genji_queue.enqueue import enqueue_job_raw
from genji_queue.status import job_public_status

from .secrets_seen import register

T = TypeVar("T")

DATABASE = "genjishimada"

# Short claim settings, owned by the database (queue_settings).
FAST_STALE_HEARTBEAT = timedelta(seconds=1.5)
FAST_MAX_RECLAIMS = 2
# Short worker intervals with the production ordering and policies.
FAST_SETTINGS = {
    "GENJI_QUEUE_POLLING_FALLBACK": "0.5",
    "GENJI_QUEUE_DRAIN_TIMEOUT": "1",
    "GENJI_QUEUE_RECONNECT_INITIAL": "0.1",
    "GENJI_QUEUE_RECONNECT_MAX": "0.5",
    "GENJI_QUEUE_COMMAND_TIMEOUT": "3",
    "GENJI_QUEUE_RETRY_DELAYS": "0.1,0.1,0.1",
    "GENJI_QUEUE_HANDLER_TIMEOUT": "30",
    "GENJI_QUEUE_DEPENDENCY_WAIT": "0.2",
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
class Stack:
    """One test's own cluster, migrated database, effect recorder and worker processes."""

    cluster: PgCluster
    tmp: Path

    @property
    def dsn(self) -> str:
        """The owner's login (the API's credentials)."""
        return self.cluster.owner_dsn(DATABASE)

    @property
    def worker_dsn(self) -> str:
        """The worker login, with its password (the bot's credentials)."""
        return self.cluster.worker_dsn(DATABASE)

    @property
    def recorder(self) -> EffectRecorder:
        return EffectRecorder(self.tmp / "effects")

    @cached_property
    def fleet(self) -> WorkerFleet:
        return WorkerFleet(self.tmp, self.recorder.directory, observer_dsn=self.dsn)

    def start_worker(self, owner: str = "bot", **settings: str) -> Worker:
        queue_dsn = self.worker_dsn if owner == "bot" else self.dsn
        return self.fleet.start(
            owner, queue_dsn, {**FAST_SETTINGS, **settings, "GENJI_TALLY_DSN": self.dsn}
        )

    def stop_all(self) -> None:
        self.fleet.kill_all()

    async def connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.dsn)

    async def sql(self, query: str, *args: Any) -> Any:
        conn = await self.connect()
        try:
            return await conn.fetch(query, *args)
        finally:
            await conn.close()

    async def admin_connect(self) -> asyncpg.Connection:
        """The bootstrap superuser's login, for what only an administrator may do (such as
        terminating another role's backends)."""
        return await asyncpg.connect(self.cluster.admin_dsn(DATABASE))

    async def admin_sql(self, query: str, *args: Any) -> Any:
        """As the bootstrap superuser, for what only an administrator may do (such as
        terminating another role's backends)."""
        conn = await self.admin_connect()
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
        conn = await self.connect()
        try:
            enqueued = await enqueue_job_raw(
                conn,
                event_name=event,
                payload_json=json.dumps(body),
                event_key=key,
                entity_key=entity,
                depends_on=depends_on,
            )
        finally:
            await conn.close()
        return enqueued.job.id

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
        conn = await self.connect()
        try:
            return (await job_public_status(conn, job_id)).status
        finally:
            await conn.close()

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


_seed: PgCluster | None = None


def _seed_cluster() -> PgCluster:
    """A stopped durable cluster with the stacks' database migrated, built once per run.

    Initialising a cluster and migrating with every flush on take seconds; a stack instead
    starts its own server on a copy of this one's data directory, as it stood after a clean
    shutdown.
    """
    global _seed
    if _seed is None:
        seed = PgCluster(durable=True)
        register(seed.password, seed.owner_password, seed.worker_password)
        try:
            seed.init()
            seed.start()
            dsn = seed.create_owned_database(DATABASE)
            apply_plan(dsn)
            seed.set_worker_password()
            with psycopg.connect(dsn, autocommit=True) as conn:
                # Stands in for a domain table the API mutates on behalf of a job.
                conn.execute(
                    "CREATE TABLE effect_tally (job_id uuid PRIMARY KEY, applied int NOT NULL)"
                )
                conn.execute(
                    "UPDATE queue_settings SET stale_heartbeat = %s, max_reclaims = %s",
                    (FAST_STALE_HEARTBEAT, FAST_MAX_RECLAIMS),
                )
            seed.stop()
        except BaseException:
            seed.destroy()
            raise
        atexit.register(seed.destroy)
        _seed = seed
    return _seed


def _copy_cluster(seed: PgCluster, cluster: PgCluster) -> None:
    """Give `cluster` a copy of the stopped `seed`'s data, owned by the server's OS user."""
    server_user = pwd.getpwnam("postgres")
    for directory in (cluster.root, cluster.sockdir):
        directory.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            os.chown(directory, server_user.pw_uid, server_user.pw_gid)
    cluster.root.chmod(0o711)
    subprocess.run(["cp", "-a", str(seed.data), str(cluster.data)], check=True)


def new_stack(tmp: Path) -> Stack:
    """A durable cluster (these tests kill and crash it) with the production identities: the
    owner migrates and owns everything, the worker logs in with its password."""
    seed = _seed_cluster()
    cluster = PgCluster(
        durable=True,
        password=seed.password,
        owner_password=seed.owner_password,
        worker_password=seed.worker_password,
    )
    try:
        _copy_cluster(seed, cluster)
        cluster.start()
    except BaseException:
        cluster.destroy()
        raise
    return Stack(cluster=cluster, tmp=tmp)


def sample(event: str) -> dict[str, Any]:
    """A valid payload for `event`, as JSON-ready data."""
    decoded: dict[str, Any] = msgspec.to_builtins(SAMPLES[event])
    return decoded


# -- Claim-level observations: which execution holds a job, and what each one did ------------


@dataclass(frozen=True)
class QueueClaim:
    """A job's active queue row as the database sees it."""

    status: str | None
    """pgqueuer status; None once the row is gone (completed)."""
    manager: UUID | None
    claimed_at: datetime | None
    heartbeat: datetime | None

    @property
    def token(self) -> tuple[UUID | None, datetime | None]:
        return (self.manager, self.claimed_at)


async def active_claim(stack: Stack, job_id: UUID) -> QueueClaim:
    rows = await stack.sql(
        """SELECT q.status::text AS status, q.queue_manager_id, q.updated, q.heartbeat
           FROM jobs j LEFT JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = $1""",
        job_id,
    )
    row = rows[0]
    return QueueClaim(row["status"], row["queue_manager_id"], row["updated"], row["heartbeat"])


def recorded_claims(stack: Stack, job_id: UUID, pid: int | None = None) -> list[QueueClaim]:
    """Claims under which the recorder saw `job_id` run (by `pid`), in order of first effect."""
    seen: list[QueueClaim] = []
    for event in stack.recorder.events():
        if event["job_id"] != str(job_id) or (pid is not None and event["pid"] != pid):
            continue
        claim = QueueClaim(
            "picked", UUID(event["manager"]), datetime.fromisoformat(event["claimed_at"]), None
        )
        if claim.token not in [c.token for c in seen]:
            seen.append(claim)
    return seen


async def until_logged(worker: Worker, text: str, deadline: float = 20.0) -> None:
    async def probe() -> bool:
        return text in worker.log()

    await eventually(probe, deadline, f"{text!r} in {worker.log_path.name}")


async def log_rows(stack: Stack, job_id: UUID, status: str) -> list[datetime]:
    """Creation times of the job's pgqueuer_log rows with `status`."""
    rows = await stack.sql(
        """SELECT l.created FROM pgqueuer_log l JOIN jobs j ON j.queue_job_id = l.job_id
           WHERE j.id = $1 AND l.status::text = $2 ORDER BY l.id""",
        job_id,
        status,
    )
    return [r["created"] for r in rows]


async def manager_of(stack: Stack, worker: Worker) -> UUID:
    """The queue manager id a running worker registered in queue_workers."""

    async def probe() -> UUID | None:
        value = await stack.value(
            "SELECT manager_id FROM queue_workers WHERE pid = $1 ORDER BY beat_at DESC LIMIT 1",
            worker.process.pid,
        )
        return UUID(str(value)) if value is not None else None

    return await eventually(probe, 20, f"worker {worker.process.pid} to register")
