"""The Litestar application: routes -> services -> repositories and the typed queue package."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar, Router, get
from litestar.datastructures import State
from litestar.di import Provide
from litestar.middleware.base import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from genji_api.auth.guards import scope_guard
from genji_api.auth.middleware import API_KEY_HEADER, PUBLIC_PATHS, ApiKeyMiddleware
from genji_api.database import Database, create_pool
from genji_api.http.app_logging import app_logging
from genji_api.http.docs_pages import SCHEMA_PATH, assets_router, render_plugins
from genji_api.http.error_bodies import EXCEPTION_HANDLERS
from genji_api.http.error_docs import ErrorResponsesPlugin
from genji_api.http.json_body import screen_json_body
from genji_api.http.operation_docs import OperationTextPlugin
from genji_api.metrics.endpoint import MetricsEndpoint
from genji_api.routes import ROUTES
from genji_api.settings import ApiSettings

log = logging.getLogger("genji.api")


def _database(state: State) -> Database:
    database: Database = state.database
    return database


def _settings(state: State) -> ApiSettings:
    settings: ApiSettings = state.settings
    return settings


@get("/healthcheck", opt={"exclude_from_auth": True}, include_in_schema=False)
async def healthcheck() -> dict[str, str]:
    return {"status": "ok"}


def _exit_if_worker_died(task: asyncio.Task[None]) -> None:
    """A dead worker must not hide behind a healthy-looking API: stop the process so its
    manager restarts it."""
    if task.cancelled() or task.exception() is None:
        return
    log.critical("API worker died: %r; stopping the process", task.exception())
    os.kill(os.getpid(), signal.SIGTERM)


def create_app(settings: ApiSettings) -> Litestar:
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        pool = await create_pool(
            settings.database_url,
            min_size=settings.pool_min_size,
            max_size=settings.pool_max_size,
        )
        database = Database(pool, attempts=settings.transaction_attempts)
        app.state.database = database
        app.state.settings = settings
        metrics = None
        if settings.metrics.port is not None:
            metrics = MetricsEndpoint(database, settings.metrics)
        app.state.metrics = metrics
        worker_task = None
        if settings.run_worker:
            # Imported here: the worker pulls in every feature's handlers.
            from genji_api.worker.runtime import ApiWorker

            worker = ApiWorker(database, settings)
            worker_task = asyncio.create_task(worker.run(), name="api-worker")
            worker_task.add_done_callback(_exit_if_worker_died)
        try:
            yield
        finally:
            if worker_task is not None:
                worker.request_stop()
                await worker_task
            if metrics is not None:
                await metrics.stop()
            await pool.close()

    api = Router(path="/api/v3", route_handlers=ROUTES)
    return Litestar(
        route_handlers=[api, healthcheck, assets_router()],
        lifespan=[lifespan],
        dependencies={
            "database": Provide(_database, sync_to_thread=False),
            "settings": Provide(_settings, sync_to_thread=False),
        },
        middleware=[DefineMiddleware(ApiKeyMiddleware, exclude=list(PUBLIC_PATHS))],
        guards=[scope_guard],
        before_request=screen_json_body,
        exception_handlers=EXCEPTION_HANDLERS,
        plugins=[ErrorResponsesPlugin(), OperationTextPlugin()],
        request_max_body_size=settings.request_max_body_bytes,
        logging_config=app_logging(),
        openapi_config=OpenAPIConfig(
            title="Genji Shimada API",
            version="3",
            path=SCHEMA_PATH,
            render_plugins=render_plugins(),
            components=Components(
                security_schemes={
                    "ApiKey": SecurityScheme(
                        type="apiKey", name=API_KEY_HEADER, security_scheme_in="header"
                    )
                }
            ),
            security=[{"ApiKey": []}],
        ),
    )
