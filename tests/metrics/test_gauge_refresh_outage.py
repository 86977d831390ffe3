"""The queue gauges' refresh while the database refuses connections: database_up drops to 0,
the outage is logged once for its whole run of failed attempts, and its end once."""

from __future__ import annotations

import asyncio
import logging

import asyncpg
import pytest
from genji_api.database import Database as Pool
from genji_api.database import create_pool
from genji_api.metrics.gauges import QueueGauges
from genji_api.metrics.schedule import run_gauge_refresh

from tests.support.harness import eventually
from tests.support.testdb import Database

pytestmark = pytest.mark.queue

UNREACHABLE = "database unreachable"
RECOVERED = "database reachable again"
# How an outage's first failed refresh is logged: a connection or server error, or (rarely, a
# pool torn down under a read) another exception, logged with its traceback.
BEGAN = (UNREACHABLE, "refresh failed")


def _up(gauges: QueueGauges) -> float:
    return next(
        sample.value
        for family in gauges.collect()
        if family.name == "genji_queue_metrics_database_up"
        for sample in family.samples
    )


async def _refuse_connections(db: Database, refuse: bool) -> None:
    """As the administrator, on the maintenance database: stop (or resume) accepting sessions
    to the test database, ending the ones it has."""
    admin = await asyncpg.connect(db.admin_dsn.rsplit("/", 1)[0] + "/postgres")
    try:
        allowed = "false" if refuse else "true"
        await admin.execute(f'ALTER DATABASE "{db.name}" ALLOW_CONNECTIONS {allowed}')
        if refuse:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                db.name,
            )
    finally:
        await admin.close()


def _refreshed_at(gauges: QueueGauges) -> float | None:
    return next(
        (
            sample.value
            for family in gauges.collect()
            if family.name == "genji_queue_metrics_refreshed_timestamp_seconds"
            for sample in family.samples
        ),
        None,
    )


async def test_refresh_logs_an_outage_once_and_its_recovery_once(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="genji.api.metrics")
    pool = await create_pool(db.dsn, min_size=1, max_size=2)
    gauges, stop = QueueGauges(), asyncio.Event()
    task = asyncio.create_task(run_gauge_refresh(Pool(pool), gauges, 0.05, stop))

    async def up() -> bool:
        return _up(gauges) == 1

    async def failed_repeatedly() -> bool:
        return gauges.failures >= 5

    try:
        await eventually(up, deadline=5, what="a first refresh")
        await _refuse_connections(db, refuse=True)
        try:
            await eventually(failed_repeatedly, deadline=10, what="five failed refreshes")
            assert _up(gauges) == 0
        finally:
            await _refuse_connections(db, refuse=False)
        await eventually(up, deadline=10, what="the recovery")
        failures, stamps = gauges.failures, {_refreshed_at(gauges)}

        async def healthy_again() -> bool:
            stamps.add(_refreshed_at(gauges))
            return len(stamps) > 3

        await eventually(healthy_again, deadline=5, what="three more good refreshes")
        assert gauges.failures == failures
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)
        await pool.close()

    messages = [r.getMessage() for r in caplog.records if r.name == "genji.api.metrics"]
    transitions = [m for m in messages if any(text in m for text in (*BEGAN, RECOVERED))]
    assert len(transitions) == 2, messages
    assert any(text in transitions[0] for text in BEGAN), messages
    assert RECOVERED in transitions[1], messages
