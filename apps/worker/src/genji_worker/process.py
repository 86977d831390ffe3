"""Entry point shared by the bot and API worker processes."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Mapping
from urllib.parse import quote, urlsplit, urlunsplit

import asyncpg
from genji_sdk import Owner

from genji_worker.executor import Handler
from genji_worker.settings import settings_from_env
from genji_worker.supervisor import QueueSupervisor

log = logging.getLogger("genji.queue")


WORKER_ROLE = "genjishimada_queue_worker"


def worker_dsn(dsn: str, password: str | None) -> str:
    """The same database, logged in as the queue-only worker role."""
    parts = urlsplit(dsn)
    auth = WORKER_ROLE + (f":{quote(password, safe='')}" if password else "")
    netloc = f"{auth}@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def queue_dsn(owner: Owner, environ: Mapping[str, str] = os.environ) -> str:
    """Where this worker's queue connection goes.

    QUEUE_DATABASE_URL wins. Otherwise the API worker uses the API's DATABASE_URL, and the bot
    worker uses DATABASE_URL's location with the worker login and QUEUE_DATABASE_PASSWORD:
    the bot never falls back to the owner's credentials.
    """
    if environ.get("QUEUE_DATABASE_URL"):
        return environ["QUEUE_DATABASE_URL"]
    dsn = environ.get("DATABASE_URL")
    if not dsn:
        raise SystemExit("QUEUE_DATABASE_URL (or DATABASE_URL) must name the queue database")
    return dsn if owner == "api" else worker_dsn(dsn, environ.get("QUEUE_DATABASE_PASSWORD"))


async def serve(owner: Owner, handlers: Mapping[str, Handler], dsn: str) -> None:
    async def connect() -> asyncpg.Connection:
        return await asyncpg.connect(
            dsn, server_settings={"application_name": f"genji-{owner}-worker"}
        )

    supervisor = QueueSupervisor(
        owner=owner, handlers=handlers, connect=connect, settings=settings_from_env()
    )
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, supervisor.request_stop)
    log.info("%s worker started with %d entrypoints", owner, len(handlers))
    await supervisor.run()
    log.info("%s worker stopped", owner)


def run_worker_process(owner: Owner, handlers: Mapping[str, Handler]) -> int:
    """Run until SIGTERM/SIGINT; a non-zero exit means the worker died and must be restarted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("pgqueuer").setLevel(logging.WARNING)
    try:
        asyncio.run(serve(owner, handlers, queue_dsn(owner)))
    except Exception:
        log.exception("%s queue worker died", owner)
        return 1
    return 0
