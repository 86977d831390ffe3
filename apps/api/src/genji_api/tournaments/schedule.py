"""The tournament schedule of the API worker: the edition boundary, then the outbox drain."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from genji_api.database import Database
from genji_api.tournaments.edition import process_edition_transitions
from genji_api.tournaments.outbox_service import drain_tournament_outbox

log = logging.getLogger("genji.api.tournaments")


async def run_tournament_schedule(
    database: Database, interval_seconds: float, stop: asyncio.Event
) -> None:
    """Every `interval_seconds`, end a due edition and drain the outbox, until `stop` is set.

    A failing tick is logged once for a run of failures (and its recovery once), then the loop
    goes on: each tick is its own transaction, so a failure leaves nothing half done.
    """
    failing = False
    while not stop.is_set():
        try:
            await process_edition_transitions(database)
            await drain_tournament_outbox(database)
        except Exception:
            if not failing:
                log.exception("tournament schedule failed; retrying every %ss", interval_seconds)
            failing = True
        else:
            if failing:
                log.info("tournament schedule recovered")
            failing = False
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval_seconds)
