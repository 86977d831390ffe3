"""Pieces every benchmark shares: the durability modes and their clusters, a migrated database,
the sample job, the in-process supervisor, polling, targets and tables."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar
from uuid import UUID

import asyncpg
from genji_api.migrate import apply_plan
from genji_devstack.cluster import PgCluster
from genji_queue.enqueue import enqueue_job_raw
from genji_sdk import REGISTRY, Owner
from genji_worker.executor import Handler
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor

T = TypeVar("T")

EVENT = "api.xp.grant"
# As the server reports them; PgCluster(durable=...) sets all three.
DURABILITY_SETTINGS = ("fsync", "synchronous_commit", "full_page_writes")
OWNER: Owner = "bot"
# The spec settings: production defaults (batch 1, 2 active jobs, entrypoint concurrency 1),
# shorter polling.
SUPERVISOR_SETTINGS = WorkerSettings(polling_fallback=timedelta(seconds=0.5))
DEADLINE_S = 120.0
POLL_S = 0.005


@dataclass(frozen=True)
class Mode:
    """How the benchmark server treats commits."""

    label: str
    durable: bool


# Production: every commit waits for its WAL flush. The headline figures and targets.
DURABLE = Mode("durable", True)
# No flushes at all: what remains is statement, round-trip and CPU cost.
FSYNC_OFF = Mode("fsync off", False)
MODES = (DURABLE, FSYNC_OFF)


def bench_cluster(mode: Mode) -> PgCluster:
    """A throwaway cluster (use it as a context manager) with `mode`'s durability."""
    return PgCluster(durable=mode.durable)


async def server_durability(conn: asyncpg.Connection) -> str:
    """The durability settings as the server reports them, e.g. 'fsync=on ...'."""
    values = [f"{name}={await conn.fetchval(f'SHOW {name}')}" for name in DURABILITY_SETTINGS]
    return " ".join(values)


async def describe_server(conn: asyncpg.Connection, mode: Mode) -> str:
    version = (await conn.fetchval("SHOW server_version")).split()[0]
    return f"[{mode.label}] PostgreSQL {version}, {await server_durability(conn)}"


@dataclass(frozen=True)
class Database:
    cluster: PgCluster
    name: str

    @property
    def dsn(self) -> str:
        """The owner's login: it migrated the database and owns its objects (the API's)."""
        return self.cluster.owner_dsn(self.name)

    @property
    def worker_dsn(self) -> str:
        """The queue worker's login with its password, as the bot worker connects."""
        return self.cluster.worker_dsn(self.name)

    @property
    def admin_dsn(self) -> str:
        """The bootstrap superuser, for CHECKPOINT, server settings and extensions."""
        return self.cluster.admin_dsn(self.name)

    async def connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.dsn)

    async def admin_connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.admin_dsn)

    async def checkpoint(self) -> None:
        """CHECKPOINT, as the superuser: the owner may not (it lacks pg_checkpoint)."""
        admin = await self.admin_connect()
        try:
            await admin.execute("CHECKPOINT")
        finally:
            await admin.close()


async def migrated_database(cluster: PgCluster, name: str) -> Database:
    """Database `name` on `cluster`, owned and migrated by the owner role, with the worker
    login's password set."""
    dsn = await asyncio.to_thread(cluster.create_owned_database, name)
    await asyncio.to_thread(apply_plan, dsn)
    await asyncio.to_thread(cluster.set_worker_password)
    return Database(cluster, name)


# -- the sample job --------------------------------------------------------------------------


def xp_body(n: int) -> str:
    """A valid api.xp.grant payload as JSON."""
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


async def enqueue_xp(conn: asyncpg.Connection, key: str, n: int) -> UUID:
    """One enqueue_job call (commits unless `conn` is in a transaction); returns the job id."""
    enqueued = await enqueue_job_raw(
        conn, event_name=EVENT, payload_json=xp_body(n), event_key=key, entity_key=f"user:{key}"
    )
    return enqueued.job.id


@dataclass
class StatementCounter:
    """Counts the statements a connection sends (asyncpg's query logger)."""

    count: int = 0

    def attach(self, conn: asyncpg.Connection) -> None:
        conn.add_query_logger(self._seen)

    def _seen(self, record: object) -> None:
        self.count += 1


def in_process_supervisor(
    database: Database, handler: Handler, counter: StatementCounter | None = None
) -> QueueSupervisor:
    """A fenced QueueSupervisor running `handler` for every bot event (it insists on all of
    them), logged in as the worker role as the bot worker is in production."""

    async def connect() -> asyncpg.Connection:
        conn = await asyncpg.connect(
            database.worker_dsn, server_settings={"application_name": f"genji-{OWNER}-worker"}
        )
        if counter is not None:
            counter.attach(conn)
        return conn

    handlers = {spec.name: handler for spec in REGISTRY.owned_by(OWNER)}
    return QueueSupervisor(
        owner=OWNER, handlers=handlers, connect=connect, settings=SUPERVISOR_SETTINGS
    )


async def until(
    probe: Callable[[], Awaitable[T | None]],
    what: str,
    deadline: float = DEADLINE_S,
    interval: float = 0.02,
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


# -- results ---------------------------------------------------------------------------------


def paired_ratio(top: Sequence[float], bottom: Sequence[float]) -> float:
    """Median over rounds of top/bottom within each round: cases of one round run minutes
    apart at most, so a slow spell of the shared machine (or its disk) hits both."""
    return statistics.median(t / b for t, b in zip(top, bottom, strict=True))


def percentile(values: Sequence[float], cut: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[cut - 1]


@dataclass(frozen=True)
class Target:
    """One target, judged on one measured value."""

    name: str
    mode: Mode
    value: float
    limit: float
    unit: str
    """'x' for a ratio that must reach `limit`, 'ms' or 's' for a time that must stay below."""
    ceiling: bool = False
    """A ratio that must stay below `limit` instead (a cost against its baseline)."""

    @property
    def floor(self) -> bool:
        return self.unit == "x" and not self.ceiling

    @property
    def met(self) -> bool:
        return self.value >= self.limit if self.floor else self.value < self.limit

    def line(self) -> str:
        verdict = "MET" if self.met else "NOT MET"
        relation = ">=" if self.floor else "<"
        return (
            f"{verdict:<8} {self.name} [{self.mode.label}]: {self.value:.2f}{self.unit} "
            f"(target {relation} {self.limit:g}{self.unit})"
        )


def print_targets(targets: Sequence[Target]) -> None:
    print()
    for target in targets:
        print(target.line())


def print_table(
    title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], first: str = ""
) -> None:
    """`title` on its own line, then a header of `first` and `columns`, then `rows`."""
    width = max(len(first), *(len(row[0]) for row in rows))
    cell = max(13, *(len(column) for column in columns))
    header = f"{first:<{width}}" + "".join(f"  {column:>{cell}}" for column in columns)
    print()
    print(title)
    print(header)
    print("-" * len(header))
    for name, *cells in rows:
        print(f"{name:<{width}}" + "".join(f"  {value:>{cell}}" for value in cells))


@contextmanager
def timed(label: str) -> Iterator[None]:
    began = time.monotonic()
    load = os.getloadavg()[0]
    try:
        yield
    finally:
        took = time.monotonic() - began
        print(f"\n{label}: {took:.1f}s, load average {load:.2f} at start")


def bench_main(
    doc: str | None, title: str, run: Callable[[bool], Coroutine[Any, Any, object]]
) -> int:
    """The command line of one benchmark file: `--quick` for a smoke run with fewer samples."""
    parser = argparse.ArgumentParser(description=doc.split("\n", 1)[0] if doc else None)
    parser.add_argument("--quick", action="store_true", help="fewer samples, for a smoke run")
    args = parser.parse_args()
    with timed(f"{title} benchmark"):
        asyncio.run(run(args.quick))
    return 0
