"""The daily log pruning of the API worker. Every API process runs this loop; the database lets
one of them prune per day (sql/retention_schedule.sql), so restarts and extra processes neither
skip a day nor prune twice."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from genji_queue.retention_schedule import RetentionRun, queue_retention_run

from genji_api.database import Database
from genji_api.periodic import Periodic, run_periodically

log = logging.getLogger("genji.api.retention")

EVERY = timedelta(days=1)
_PRUNING = Periodic(log, failed="queue log pruning failed", recovered="queue log pruning recovered")


async def run_retention_once(database: Database, retention: timedelta) -> RetentionRun:
    run = await database.transaction(
        lambda conn: queue_retention_run(conn, every=EVERY, retention=retention)
    )
    if run.ran:
        log.info(
            "queue log pruning: %d finished jobs' logs removed in %d batches (older than %s)",
            run.pruned,
            run.batches,
            retention,
        )
    return run


async def run_retention_schedule(
    database: Database, retention: timedelta, check_seconds: float, stop: asyncio.Event
) -> None:
    """Every `check_seconds`, prune if a day has passed since the last run, until `stop`."""
    await run_periodically(
        _PRUNING, lambda: run_retention_once(database, retention), check_seconds, stop
    )
