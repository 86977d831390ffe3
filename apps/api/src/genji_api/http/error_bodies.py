"""Every error response has the legacy body `{"error": <detail>, "extra": <extra or null>}`
and a `code` (genji_sdk.api_errors)."""

from __future__ import annotations

import logging
from typing import Any

import asyncpg
from asyncpg import exceptions as asyncpg_exceptions
from genji_sdk.api_errors import ErrorCode, code_for_status
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR, HTTP_503_SERVICE_UNAVAILABLE
from litestar.types import ExceptionHandlersMap

from genji_api.errors import ApiError
from genji_api.http.parameter_names import named_as_sent
from genji_api.http.unavailable import CONNECTION_CLASSES, database_unavailable

log = logging.getLogger("genji.api")

# A PostgreSQL restart or a failover takes a few seconds; clients retry about this often.
RETRY_AFTER_SECONDS = 2
DATABASE_UNAVAILABLE = "The database is unavailable. Retry later."
UNSTORABLE_TEXT = "Invalid input: text holds a character the database cannot store."
_UNSTORABLE_TEXT = (
    asyncpg_exceptions.CharacterNotInRepertoireError,
    asyncpg_exceptions.UntranslatableCharacterError,
)


def _body(
    status: int, error: str, extra: Any, code: ErrorCode | None = None
) -> Response[dict[str, Any]]:
    body = {"error": error, "extra": extra, "code": code or code_for_status(status)}
    return Response(body, status_code=status)


def api_error(_: Request[Any, Any, Any], exc: ApiError) -> Response[dict[str, Any]]:
    if exc.status_code >= 500:
        log.error("%s: %s", type(exc).__name__, exc.message)
    return _body(exc.status_code, exc.message, exc.extra, exc.code)


def http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, Any]]:
    if exc.status_code == HTTP_500_INTERNAL_SERVER_ERROR:
        # Litestar's own 500s (a misconfiguration, say) carry internals in their detail.
        return internal_error(request, exc)
    extra = exc.extra if exc.extra not in ({}, [], None) else None
    if isinstance(exc, ValidationException):
        extra = named_as_sent(request, extra)
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


def data_error(request: Request[Any, Any, Any], exc: asyncpg.DataError) -> Response[dict[str, Any]]:
    # asyncpg could not encode a query argument for its column (an id past int4 or int8, say):
    # only a number the client sent can be that large, and no row can match it.
    if isinstance(exc.__cause__, OverflowError):
        return _body(400, "Invalid input: a number is out of range.", None)
    # Text only a client can send: a lone surrogate asyncpg cannot encode, or a character the
    # server stores in neither text nor jsonb (NUL, in a path or query value). The statement
    # failed, so its transaction rolls back whole.
    if isinstance(exc.__cause__, UnicodeError) or isinstance(exc, _UNSTORABLE_TEXT):
        return _body(400, UNSTORABLE_TEXT, None)
    return internal_error(request, exc)


def database_error(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, Any]]:
    if not database_unavailable(exc):
        return internal_error(request, exc)
    # An outage, not a bug: one line without the traceback, and never the headers or body.
    log.warning(
        "%s %s: database unavailable: %s: %.200s",
        request.method,
        request.url.path,
        type(exc).__name__,
        exc,
    )
    response = _body(HTTP_503_SERVICE_UNAVAILABLE, DATABASE_UNAVAILABLE, None)
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    ApiError: api_error,
    asyncpg.DataError: data_error,
    HTTPException: http_error,
    **dict.fromkeys(CONNECTION_CLASSES, database_error),
    Exception: internal_error,
}
