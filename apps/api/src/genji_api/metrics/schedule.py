"""The refresh of the queue gauges: every interval, one read of the database on the pool.

A refresh that fails is logged once when the failures begin ("database unreachable") and once
when a refresh succeeds again, not per attempt.
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg

from genji_api.database import Database
from genji_api.metrics.gauges import QueueGauges, read_snapshot
from genji_api.periodic import Periodic, run_periodically

log = logging.getLogger("genji.api.metrics")

# The database cannot be read: refused or lost connections, server errors, the deadline.
UNREACHABLE = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
READ_DEADLINE_SECONDS = 10.0
"""How long one refresh may wait for a pooled connection and both reads."""
_REFRESH = Periodic(
    log,
    failed="queue metrics: refresh failed",
    recovered="queue metrics: database reachable again",
    expected=UNREACHABLE,
    unreachable="queue metrics: database unreachable",
)


async def refresh_once(database: Database, gauges: QueueGauges, deadline: float) -> None:
    async with asyncio.timeout(deadline):
        snapshot = await database.read(read_snapshot)
    gauges.update(snapshot)


async def run_gauge_refresh(
    database: Database, gauges: QueueGauges, every: float, stop: asyncio.Event
) -> None:
    """Refresh `gauges` every `every` seconds until `stop`."""
    await run_periodically(
        _REFRESH,
        lambda: refresh_once(database, gauges, READ_DEADLINE_SECONDS),
        every,
        stop,
        on_failure=gauges.unreachable,
    )
