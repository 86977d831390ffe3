"""How an operator command reaches the services: the API's settings and a one-connection pool
on the owner login, and the exit status each way a command can end."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from enum import IntEnum
from typing import TypeVar

import asyncpg

from genji_api.database import Database, create_pool
from genji_api.errors import (
    ApiError,
    BadRequestError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    ReconciliationRequiredError,
)
from genji_api.queue.report import where
from genji_api.settings import ApiSettings, SettingsError, settings_from_env

T = TypeVar("T")

CONNECT_TIMEOUT = 10.0


class Exit(IntEnum):
    OK = 0
    """Read, or the action was accepted now or by an earlier run with the same key."""
    REJECTED = 1
    """The service answered another outcome, or the key belongs to another action: nothing
    changed."""
    USAGE = 2
    """Bad options or arguments, or missing settings."""
    NOT_FOUND = 3
    """No job (or no such send of the job)."""
    FORBIDDEN = 4
    """The actor is not in QUEUE_OPERATOR_IDS."""
    UNAVAILABLE = 5
    """The database cannot be reached, refused the login, or is not migrated."""
    INCONSISTENT = 6
    """The job's queue metadata is missing or contradictory: reconcile it by hand."""
    AMBIGUOUS = 7
    """The job reference matches several jobs."""


class CommandError(Exception):
    """A command ended early: its message for the operator and its exit status."""

    def __init__(self, message: str, code: Exit, extra: object = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.extra = extra


_BY_API_ERROR: tuple[tuple[type[ApiError], Exit], ...] = (
    (NotFoundError, Exit.NOT_FOUND),
    (ForbiddenError, Exit.FORBIDDEN),
    (ConflictError, Exit.REJECTED),
    (BadRequestError, Exit.USAGE),
    (ReconciliationRequiredError, Exit.INCONSISTENT),
)

# SQLSTATE classes that mean the database is not there for us: connection exceptions (08),
# login refused (28), no such database (3D), server starting or shutting down (57P), and an
# unmigrated database (undefined table or function).
_UNAVAILABLE_STATES = ("08", "28", "3D", "57P", "42P01", "42883")


def load_settings(database_url: str | None) -> ApiSettings:
    environ = dict(os.environ)
    if database_url:
        environ["DATABASE_URL"] = database_url
    try:
        return settings_from_env(environ)
    except SettingsError as error:
        raise CommandError(str(error), Exit.USAGE) from None


PASSWORD_HINT = (
    "the owner's password comes from PGPASSFILE (a pgpass file; `just up` prints the export "
    "line for its own), PGPASSWORD or ~/.pgpass, never from the command line"
)


def _unavailable(error: BaseException, dsn: str) -> CommandError:
    detail = " ".join(str(error).split()) or type(error).__name__
    message = f"cannot use the database {where(dsn)}: {type(error).__name__}: {detail}"
    if _is_password_failure(error, detail):
        message = f"{message}; {PASSWORD_HINT}"
    return CommandError(message, Exit.UNAVAILABLE)


def _is_password_failure(error: BaseException, detail: str) -> bool:
    state = getattr(error, "sqlstate", None) or ""
    return state.startswith("28") or "password" in detail.lower()


def _is_unavailable(error: BaseException) -> bool:
    if isinstance(error, OSError | TimeoutError | asyncpg.InterfaceError):
        return True
    state = getattr(error, "sqlstate", None) or ""
    return isinstance(error, asyncpg.PostgresError) and state.startswith(_UNAVAILABLE_STATES)


async def _with_database(settings: ApiSettings, work: Callable[[Database], Awaitable[T]]) -> T:
    async with asyncio.timeout(CONNECT_TIMEOUT):
        pool = await create_pool(settings.database_url, min_size=1, max_size=1)
    try:
        return await work(Database(pool, attempts=settings.transaction_attempts))
    finally:
        await pool.close()


def run(settings: ApiSettings, work: Callable[[Database], Awaitable[T]]) -> T:
    """Run `work` against the API's database; every failure an operator can act on becomes a
    CommandError with its exit status."""
    try:
        return asyncio.run(_with_database(settings, work))
    except ApiError as error:
        for kind, code in _BY_API_ERROR:
            if isinstance(error, kind):
                raise CommandError(error.message, code, error.extra) from None
        raise
    except asyncpg.ClientConfigurationError as error:
        raise CommandError(f"DATABASE_URL is not usable: {error}", Exit.USAGE) from None
    except Exception as error:
        if _is_unavailable(error):
            raise _unavailable(error, settings.database_url) from None
        raise
