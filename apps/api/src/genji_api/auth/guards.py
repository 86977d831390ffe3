"""The global guard: superusers pass; others need every scope the route requires.

A route that names no scopes is superuser-only, as it always was.
"""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers.base import BaseRouteHandler

from genji_api.auth.middleware import PUBLIC_PATHS
from genji_api.auth.tokens import AuthToken


def scope_guard(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    if handler.opt.get("exclude_from_auth"):
        return
    if connection.scope.get("auth") is None and connection.url.path.startswith(PUBLIC_PATHS):
        return  # the OpenAPI pages, which the authentication middleware let through
    token: AuthToken = connection.auth
    if token.is_superuser:
        return
    required: frozenset[str] | None = handler.opt.get("required_scopes")
    if not required:
        raise NotAuthorizedException("This endpoint requires elevated privileges.")
    missing = sorted(required - token.scopes)
    if missing:
        raise NotAuthorizedException(f"Missing required scopes: {', '.join(missing)}")
