"""Which exceptions mean the database cannot be reached, as opposed to a bug in the API.

A request that fails because the server refused, dropped or shut down its connection (or the
pool is closing) is answered 503 with a `Retry-After`: the same request will succeed once the
database is back, and a client that retries it must not count the outage as a failure of its
own. Everything else stays a 500.

Checked against asyncpg's exception hierarchy, an exception is an outage when it is:

- noted by `genji_api.database` as having left its connection closed (the backend went away
  during the request's work, whatever asyncpg raised for it);
- raised while asyncpg was opening a connection (the pool replacing one it lost): whatever the
  server answered (57P03 cannot connect now, 53300 too many connections, 55000 database not
  accepting connections, a failed login, ...) or the socket did (refused, unreachable, name
  resolution, the connect timeout), the request cannot reach the database;
- a `PostgresConnectionError` (SQLSTATE class 08: the connection failed or no longer exists,
  including `ConnectionDoesNotExistError` for a backend that went away mid-operation), except
  `ProtocolViolationError` (08P01), which PostgreSQL also raises for a malformed message on a
  working connection, such as a bind with the wrong number of parameters: a bug;
- an `OperatorInterventionError` (class 57: 57P01 admin shutdown, 57P02 crash shutdown, 57P03
  cannot connect now, 57P04 database dropped, 57P05 idle session timeout), except
  `QueryCanceledError` (57014), a statement timeout or cancel: a query that is always too slow
  would be retried forever as an outage, so it stays a 500 and spends the client's budget;
- an `InterfaceError` with the message asyncpg gives a closed connection or pool; the same class
  also reports misuse (wrong argument count, a released connection, an uninitialised pool),
  which stays a 500.

An `OSError` is an outage only from asyncpg's connect (refused, unreachable host, name
resolution, the connect timeout); on an open connection asyncpg reports a broken socket as
`ConnectionDoesNotExistError`, and an OSError from anywhere else in a route is a bug.
"""

from __future__ import annotations

from types import TracebackType

import asyncpg
from asyncpg import exceptions

from genji_api.database import CONNECTION_LOST

# The registration keys of the 503 handler; `database_unavailable` narrows each one.
CONNECTION_CLASSES: tuple[type[Exception], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    exceptions.InternalClientError,
    OSError,
)

_LOST: tuple[type[Exception], ...] = (
    asyncpg.PostgresConnectionError,
    exceptions.OperatorInterventionError,
)
_NOT_AN_OUTAGE: tuple[type[Exception], ...] = (
    exceptions.ProtocolViolationError,
    exceptions.QueryCanceledError,
)
_CLOSED_POOL_MESSAGES = frozenset({"pool is closing", "pool is closed"})


def _modules(error: BaseException | None) -> set[str]:
    """The modules `error` passed through, and those of the errors it was raised from (a
    connect timeout is raised from the cancellation of the connect attempt)."""
    names: set[str] = set()
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        trace: TracebackType | None = error.__traceback__
        while trace is not None:
            names.add(str(trace.tb_frame.f_globals.get("__name__", "")))
            trace = trace.tb_next
        error = error.__cause__
    return names


def _closed_interface(error: asyncpg.InterfaceError) -> bool:
    message = str(error)
    return message in _CLOSED_POOL_MESSAGES or message.endswith("connection is closed")


def database_unavailable(error: BaseException) -> bool:
    """True when `error` means the database was unreachable for this request."""
    if CONNECTION_LOST in getattr(error, "__notes__", ()):
        return True
    if "asyncpg.connect_utils" in _modules(error):
        return True
    if isinstance(error, asyncpg.InterfaceError):
        return _closed_interface(error)
    return isinstance(error, _LOST) and not isinstance(error, _NOT_AN_OUTAGE)
