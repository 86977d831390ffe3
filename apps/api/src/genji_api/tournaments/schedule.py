"""The tournament schedule of the API worker: the edition boundary, then the outbox drain."""

from __future__ import annotations

import asyncio
import logging

from genji_api.database import Database
from genji_api.periodic import Periodic, run_periodically
from genji_api.tournaments.edition import process_edition_transitions
from genji_api.tournaments.outbox_service import drain_tournament_outbox

log = logging.getLogger("genji.api.tournaments")
_SCHEDULE = Periodic(
    log, failed="tournament schedule failed", recovered="tournament schedule recovered"
)


async def run_tournament_schedule(
    database: Database, interval_seconds: float, stop: asyncio.Event
) -> None:
    """Every `interval_seconds`, end a due edition and drain the outbox, until `stop` is set."""

    async def tick() -> None:
        await process_edition_transitions(database)
        await drain_tournament_outbox(database)

    await run_periodically(_SCHEDULE, tick, interval_seconds, stop)
