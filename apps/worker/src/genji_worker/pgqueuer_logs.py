"""What PGQueuer logs about a dead queue connection, cut down to one line per outage.

The supervisor already logs each lost connection. PGQueuer 1.1.1 adds two kinds of noise:

- a job-log or heartbeat batch whose flush failed is kept and flushed again on a timer, and
  each failure is logged (an ERROR with a traceback, or a warning while shutting down). On a
  dead connection every retry fails the same way until the connection is replaced. The
  supervisor runs each connection's queue manager in a task carrying that connection's state
  (a context variable, inherited by every task PGQueuer starts from it); a filter on
  PGQueuer's logger turns the first flush failure on a dead connection into one warning and
  drops the rest. Failures on a connection that is still alive are logged as PGQueuer logs them.
- the manager's listener health-check task is awaited only when the manager stops normally;
  when the manager dies with its connection, that task's connection error is reported by
  asyncio as "Task exception was never retrieved". Those are logged at debug level.

Executions are cancelled when the queue connection is lost. One cancelled while its handler was
opening a database connection leaves asyncpg's future of the SSL negotiation behind, which
fails once that socket closes, and asyncio reports it as "Future exception was never
retrieved": a connection error nothing waits for any more. Those are logged at debug level too.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import weakref
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pgqueuer

from genji_worker.driver import QUEUE_CONNECTION_ERRORS

T = TypeVar("T")

log = logging.getLogger("genji.queue")

PGQUEUER_LOGGER = "pgqueuer"
FLUSH_FAILURES = ("Flush failed", "Shutdown flush failed")
PGQUEUER_SOURCE = str(Path(pgqueuer.__file__).parent)


@dataclasses.dataclass
class ConnectionLog:
    connection_lost: Callable[[], bool]
    reported: bool = False


_connection: contextvars.ContextVar[ConnectionLog | None] = contextvars.ContextVar(
    "genji_queue_connection_log", default=None
)


class FlushFailureFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not (isinstance(record.msg, str) and record.msg.startswith(FLUSH_FAILURES)):
            return True
        state = _connection.get()
        if state is None:
            return True
        error = record.exc_info[1] if record.exc_info else None
        if not (state.connection_lost() or isinstance(error, QUEUE_CONNECTION_ERRORS)):
            return True
        if state.reported:
            return False
        state.reported = True
        cause = type(error).__name__ if error is not None else "connection closed"
        record.msg = (
            f"{record.getMessage()}: queue connection lost ({cause}); "
            "later flush failures on it are not logged"
        )
        record.args = ()
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


_FILTER = FlushFailureFilter()
_quieted: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def _abandoned_pgqueuer_task(context: dict[str, Any]) -> bool:
    task = context.get("future")
    if not isinstance(task, asyncio.Task):
        return False
    if not isinstance(context.get("exception"), QUEUE_CONNECTION_ERRORS):
        return False
    code = getattr(task.get_coro(), "cr_code", None)
    return code is not None and code.co_filename.startswith(PGQUEUER_SOURCE)


# What a connection attempt fails with when its socket closes: not OSError at large, which a
# handler's own timeouts and file errors are too.
CONNECTION_ATTEMPT_ERRORS = (
    ConnectionError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
)


def _abandoned_connection_future(context: dict[str, Any]) -> bool:
    future = context.get("future")
    return (
        isinstance(future, asyncio.Future)
        and not isinstance(future, asyncio.Task)
        and isinstance(context.get("exception"), CONNECTION_ATTEMPT_ERRORS)
    )


def install(loop: asyncio.AbstractEventLoop) -> None:
    """Add the flush filter to PGQueuer's logger and quiet the abandoned tasks on `loop`."""
    logging.getLogger(PGQUEUER_LOGGER).addFilter(_FILTER)
    if loop in _quieted:
        return
    _quieted.add(loop)
    previous = loop.get_exception_handler()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if _abandoned_pgqueuer_task(context):
            log.debug("abandoned PGQueuer task failed with its connection: %s", context["future"])
        elif _abandoned_connection_future(context):
            log.debug("abandoned connection attempt failed: %r", context["exception"])
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)


def connection_task(
    work: Coroutine[Any, Any, T], connection_lost: Callable[[], bool]
) -> asyncio.Task[T]:
    """Run `work` (a queue manager on one connection) as a task whose PGQueuer flush failures
    are logged once after `connection_lost()` turns true."""
    context = contextvars.copy_context()
    context.run(_connection.set, ConnectionLog(connection_lost))
    return asyncio.create_task(work, context=context)
