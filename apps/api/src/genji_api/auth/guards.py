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
    token: AuthToken | None = connection.scope.get("auth")
    if token is None:
        # The authentication middleware skipped this request: the public pages, and the OPTIONS
        # answer Litestar gives every route (its Allow header only). Nothing else passes.
        if (
            connection.url.path.startswith(PUBLIC_PATHS)
            or connection.scope.get("method") == "OPTIONS"
        ):
            return
        raise NotAuthorizedException("An API key is required (X-API-KEY header).")
    if token.is_superuser:
        return
    required: frozenset[str] | None = handler.opt.get("required_scopes")
    if not required:
        raise NotAuthorizedException("This endpoint requires elevated privileges.")
    missing = sorted(required - token.scopes)
    if missing:
        raise NotAuthorizedException(f"Missing required scopes: {', '.join(missing)}")
