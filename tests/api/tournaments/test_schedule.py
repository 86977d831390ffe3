"""The tournament schedule loop: it runs the boundary and the drain, survives, and stops."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import asyncpg
import pytest
from genji_api.database import Database
from genji_api.tournaments.edition import bootstrap_edition
from genji_api.tournaments.schedule import run_tournament_schedule

from tests.api.db_state import inject_failure, remove_failure
from tests.support import seed
from tests.support import seed_tournaments as st
from tests.support.harness import eventually

pytestmark = pytest.mark.queue

T = TypeVar("T")


class CountingDatabase(Database):
    """The real pool; counts the transactions the loop ran."""

    transactions = 0

    async def transaction(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        self.transactions += 1
        return await super().transaction(work)


async def test_schedule_drains_survives_failures_and_stops(
    owner: asyncpg.Connection, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    await st.category(owner)
    await seed.game_map(owner)
    edition = await bootstrap_edition(database)
    counting = CountingDatabase(database.pool)
    stop = asyncio.Event()
    await inject_failure(owner, "commit")
    caplog.set_level(logging.INFO, logger="genji.api.tournaments")
    loop = asyncio.create_task(run_tournament_schedule(counting, 0.02, stop))
    try:
        # Several failing ticks (boundary + drain each), logged once.
        await eventually(lambda: asyncio.sleep(0, counting.transactions >= 8), deadline=10)
        assert not loop.done()
        await remove_failure(owner)

        async def published() -> bool:
            return bool(
                await owner.fetchval(
                    "SELECT published FROM tournaments.pending_transitions WHERE id = $1",
                    edition.transition_id,
                )
            )

        await eventually(published, deadline=10, what="the loop drained the bootstrap row")
        failures = [r for r in caplog.records if "schedule failed" in r.getMessage()]
        assert len(failures) == 1
        assert any("recovered" in r.getMessage() for r in caplog.records)
    finally:
        stop.set()
    await asyncio.wait_for(loop, timeout=5)
    assert await st.jobs_by_key(owner, "tournament:") == {
        f"tournament:rollover:{edition.edition_id}:start": "api.tournament.rollover"
    }
