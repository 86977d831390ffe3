"""The refresh of the queue gauges: every interval, one read of the database on the pool.

A refresh that fails is logged once when the failures begin ("database unreachable") and once
when a refresh succeeds again, not per attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import asyncpg

from genji_api.database import Database
from genji_api.metrics.gauges import QueueGauges, read_snapshot

log = logging.getLogger("genji.api.metrics")

# The database cannot be read: refused or lost connections, server errors, the deadline.
UNREACHABLE = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
READ_DEADLINE_SECONDS = 10.0
"""How long one refresh may wait for a pooled connection and both reads."""


async def refresh_once(database: Database, gauges: QueueGauges, deadline: float) -> None:
    async with asyncio.timeout(deadline):
        snapshot = await database.read(read_snapshot)
    gauges.update(snapshot)


async def run_gauge_refresh(
    database: Database, gauges: QueueGauges, every: float, stop: asyncio.Event
) -> None:
    """Refresh `gauges` every `every` seconds until `stop`."""
    failing = False
    while not stop.is_set():
        try:
            await refresh_once(database, gauges, READ_DEADLINE_SECONDS)
        except UNREACHABLE as error:
            gauges.unreachable()
            if not failing:
                log.warning(
                    "queue metrics: database unreachable (%s); retrying every %ss",
                    type(error).__name__,
                    every,
                )
            failing = True
        except Exception:
            # Not the database: a bug in reading the snapshot. Same once-per-run logging.
            gauges.unreachable()
            if not failing:
                log.exception("queue metrics: refresh failed; retrying every %ss", every)
            failing = True
        else:
            if failing:
                log.info("queue metrics: database reachable again")
            failing = False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
