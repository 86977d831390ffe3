"""Every error response has the legacy body `{"error": <detail>, "extra": <extra or null>}`."""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR
from litestar.types import ExceptionHandlersMap

from genji_api.errors import ApiError

log = logging.getLogger("genji.api")


def _body(status: int, error: str, extra: Any) -> Response[dict[str, Any]]:
    return Response({"error": error, "extra": extra}, status_code=status)


def api_error(_: Request[Any, Any, Any], exc: ApiError) -> Response[dict[str, Any]]:
    if exc.status_code >= 500:
        log.error("%s: %s", type(exc).__name__, exc.message)
    return _body(exc.status_code, exc.message, exc.extra)


def http_error(_: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, Any]]:
    extra = exc.extra if exc.extra not in ({}, [], None) else None
    response = _body(exc.status_code, exc.detail, extra)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, Any]]:
    # The request's headers and body stay out of the log: they can carry credentials.
    log.error(
        "%s %s failed: %s", request.method, request.url.path, type(exc).__name__, exc_info=exc
    )
    return _body(HTTP_500_INTERNAL_SERVER_ERROR, "Internal Server Error", None)


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    ApiError: api_error,
    HTTPException: http_error,
    Exception: internal_error,
}
