"""Entry point shared by the bot and API worker processes."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Mapping

import asyncpg
from genji_sdk import Owner
from genji_sdk.roles import WORKER_ROLE, login_dsn

from genji_worker.executor import Handler
from genji_worker.genji_names import unknown_genji_setting
from genji_worker.log_setup import LogFormatError, setup_logging
from genji_worker.metrics import start_metrics_server
from genji_worker.settings import metrics_settings_from_env, settings_from_env
from genji_worker.supervisor import QueueSupervisor

log = logging.getLogger("genji.queue")

# Exit status of a worker that cannot log in or whose settings are wrong: restarting it will
# not help, so a process manager must not.
EXIT_LOGIN = 2


class QueueLoginError(Exception):
    """The environment does not say how to log in to the queue database."""


def worker_dsn(dsn: str, password: str | None) -> str:
    """The same database, logged in as the queue-only worker role."""
    return login_dsn(dsn, WORKER_ROLE, password)


def queue_dsn(owner: Owner, environ: Mapping[str, str] = os.environ) -> str:
    """Where this worker's queue connection goes.

    QUEUE_DATABASE_URL wins. Otherwise the API worker uses the API's DATABASE_URL, and the bot
    worker uses DATABASE_URL's location with the worker login and QUEUE_DATABASE_PASSWORD,
    which it then requires: the bot never falls back to the owner's credentials, and the
    worker login has no password until deployment gives it one.
    """
    if environ.get("QUEUE_DATABASE_URL"):
        return environ["QUEUE_DATABASE_URL"]
    dsn = environ.get("DATABASE_URL")
    if not dsn:
        raise QueueLoginError("QUEUE_DATABASE_URL (or DATABASE_URL) must name the queue database")
    if owner == "api":
        return dsn
    password = environ.get("QUEUE_DATABASE_PASSWORD")
    if not password:
        raise QueueLoginError(
            f"QUEUE_DATABASE_PASSWORD must be set: the bot logs in as {WORKER_ROLE} with it"
        )
    return worker_dsn(dsn, password)


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
    metrics_settings = metrics_settings_from_env()
    server = start_metrics_server(metrics_settings) if metrics_settings.port is not None else None
    log.info("%s worker started with %d entrypoints", owner, len(handlers))
    try:
        await supervisor.run()
    finally:
        if server is not None:
            server.close()
    log.info("%s worker stopped", owner)


def settings_problem(environ: Mapping[str, str] = os.environ) -> str | None:
    """What is wrong with the worker and metrics settings in `environ`, or None: checked before
    a process starts, so a typo ends it with EXIT_LOGIN instead of a crash to restart."""
    try:
        settings_from_env(environ)
        metrics_settings_from_env(environ)
    except ValueError as error:
        return str(error)
    return unknown_genji_setting(environ)


def run_worker_process(owner: Owner, handlers: Mapping[str, Handler]) -> int:
    """Run until SIGTERM/SIGINT; a non-zero exit means the worker died and must be restarted,
    except EXIT_LOGIN: its credentials or settings are missing or wrong, which a restart does
    not fix."""
    try:
        setup_logging()
    except LogFormatError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_LOGIN
    problem = settings_problem()
    if problem:
        log.error("%s queue worker not started: %s", owner, problem)
        return EXIT_LOGIN
    try:
        asyncio.run(serve(owner, handlers, queue_dsn(owner)))
    except (QueueLoginError, asyncpg.InvalidAuthorizationSpecificationError) as error:
        # Missing or refused credentials: one line, without a traceback or the credentials.
        log.error("%s queue worker cannot log in to the queue database: %s", owner, error)
        return EXIT_LOGIN
    except Exception:
        log.exception("%s queue worker died", owner)
        return 1
    return 0
