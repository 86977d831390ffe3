"""One worker process of drain_wide.py: the fenced QueueSupervisor (worker login) or stock
PGQueuer 1.1.1's QueueManager (owner login), running a no-op handler for every bot event until
SIGTERM or SIGINT.

    BENCH_WORKER_DSN=... python bench/drain_worker.py fenced|stock BATCH ACTIVE

The login comes from the environment, so its password never shows in the process list.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from datetime import timedelta

import asyncpg
import msgspec
from genji_sdk import REGISTRY, JobContext
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor
from pgqueuer import QueueManager
from pgqueuer.db import AsyncpgDriver
from pgqueuer.models import Job
from pgqueuer.queries import Queries
from pgqueuer.types import QueueExecutionMode

OWNER = "bot"
POLLING = timedelta(seconds=0.5)
FENCED_APPLICATION = "bench-wide-fenced"
STOCK_APPLICATION = "bench-wide-stock"
EVENTS = [spec.name for spec in REGISTRY.owned_by(OWNER)]
DSN_VARIABLE = "BENCH_WORKER_DSN"


async def noop(payload: msgspec.Struct, context: JobContext) -> None:
    return None


async def stock_noop(job: Job) -> None:
    return None


def on_stop(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)


async def fenced(dsn: str, batch: int, active: int) -> None:
    async def connect() -> asyncpg.Connection:
        return await asyncpg.connect(dsn, server_settings={"application_name": FENCED_APPLICATION})

    settings = WorkerSettings(batch_size=batch, active_jobs=active, polling_fallback=POLLING)
    supervisor = QueueSupervisor(
        owner=OWNER, handlers=dict.fromkeys(EVENTS, noop), connect=connect, settings=settings
    )
    stop = asyncio.Event()
    on_stop(stop)
    runner = asyncio.create_task(supervisor.run())
    await stop.wait()
    supervisor.request_stop()
    await runner


async def stock(dsn: str, batch: int, active: int) -> None:
    conn = await asyncpg.connect(dsn, server_settings={"application_name": STOCK_APPLICATION})
    try:
        qm = QueueManager(Queries(AsyncpgDriver(conn)))
        # Stock's limit is per process: two processes may each run one job of an event.
        for name in EVENTS:
            qm.entrypoint(name, concurrency_limit=1)(stock_noop)
        on_stop(qm.shutdown)
        await qm.run(
            mode=QueueExecutionMode.continuous,
            batch_size=batch,
            max_concurrent_tasks=active,
            dequeue_timeout=POLLING,
        )
    finally:
        await conn.close()


def main(argv: list[str]) -> int:
    case, batch, active = argv
    run = fenced if case == "fenced" else stock
    asyncio.run(run(os.environ[DSN_VARIABLE], int(batch), int(active)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
