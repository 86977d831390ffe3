"""The Litestar application: routes -> services -> repositories and the typed queue package."""

from __future__ import annotations

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
from genji_api.http.error_bodies import EXCEPTION_HANDLERS
from genji_api.http.error_docs import ErrorResponsesPlugin
from genji_api.routes import ROUTES
from genji_api.settings import ApiSettings


def _database(state: State) -> Database:
    database: Database = state.database
    return database


def _settings(state: State) -> ApiSettings:
    settings: ApiSettings = state.settings
    return settings


@get("/healthcheck", opt={"exclude_from_auth": True}, include_in_schema=False)
async def healthcheck() -> dict[str, str]:
    return {"status": "ok"}


def create_app(settings: ApiSettings) -> Litestar:
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        pool = await create_pool(
            settings.database_url,
            min_size=settings.pool_min_size,
            max_size=settings.pool_max_size,
        )
        app.state.database = Database(pool, attempts=settings.transaction_attempts)
        app.state.settings = settings
        try:
            yield
        finally:
            await pool.close()

    api = Router(path="/api/v3", route_handlers=ROUTES)
    return Litestar(
        route_handlers=[api, healthcheck],
        lifespan=[lifespan],
        dependencies={
            "database": Provide(_database, sync_to_thread=False),
            "settings": Provide(_settings, sync_to_thread=False),
        },
        middleware=[DefineMiddleware(ApiKeyMiddleware, exclude=list(PUBLIC_PATHS))],
        guards=[scope_guard],
        exception_handlers=EXCEPTION_HANDLERS,
        plugins=[ErrorResponsesPlugin()],
        request_max_body_size=settings.request_max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="Genji Shimada API",
            version="3",
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
