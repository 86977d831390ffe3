"""Runs the API worker beside the HTTP app: its own queue connection, the service pool.

The queue supervisor is the same one the bot runs (claims, fencing, retries, drain); the
tournament schedule drains the tournament outbox on its interval, and the retention schedule
prunes finished jobs' logs once a day (genji_api.retention). Stopping ends the schedules, then
drains the supervisor.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

import asyncpg
from genji_worker.settings import WorkerSettings, settings_from_env
from genji_worker.supervisor import QueueSupervisor

from genji_api.database import Database
from genji_api.retention.schedule import run_retention_schedule
from genji_api.settings import ApiSettings
from genji_api.tournaments.schedule import run_tournament_schedule
from genji_api.worker.handlers import api_handlers

log = logging.getLogger("genji.api")


class ApiWorker:
    def __init__(
        self,
        database: Database,
        settings: ApiSettings,
        *,
        worker_settings: WorkerSettings | None = None,
    ) -> None:
        self.database = database
        self.settings = settings

        async def connect() -> asyncpg.Connection:
            return await asyncpg.connect(
                settings.database_url, server_settings={"application_name": "genji-api-worker"}
            )

        self.supervisor = QueueSupervisor(
            owner="api",
            handlers=api_handlers(database, settings),
            connect=connect,
            settings=worker_settings or settings_from_env(),
        )
        self._stop = asyncio.Event()

    def request_stop(self) -> None:
        self._stop.set()
        self.supervisor.request_stop()

    async def run(self) -> None:
        schedule = asyncio.create_task(
            run_tournament_schedule(
                self.database, self.settings.outbox_interval_seconds, self._stop
            )
        )
        retention = asyncio.create_task(
            run_retention_schedule(
                self.database,
                timedelta(days=self.settings.log_retention_days),
                self.settings.retention_check_seconds,
                self._stop,
            )
        )
        try:
            await self.supervisor.run()
        finally:
            self._stop.set()
            for task in (schedule, retention):
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        log.info("API worker stopped")
