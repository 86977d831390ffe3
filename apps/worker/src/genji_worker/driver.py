"""The queue connection's driver: a deadline on every command, and what counts as its death.

One rule decides whether the queue connection is gone: an error of a connection type, or any
error raised while the connection is closed or was terminated. The type alone is not enough:
a backend terminated mid-command can surface in asyncpg as a protocol-state error
(InternalClientError "cannot switch to state ...") before the client has noticed the close.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import asyncpg
from pgqueuer.db import AsyncpgDriver

T = TypeVar("T")

# How long an unexplained client-side error waits for the connection's close to be noticed
# before it is taken as a real error.
CLOSE_NOTICE_SECONDS = 0.5


class QueueCommandTimeout(Exception):
    """A queue command missed its deadline; its connection was closed for recovery."""


class QueueConnectionLost(ConnectionError):
    """A queue command failed because its connection was closed or terminated meanwhile."""


# The queue connection itself is gone: nothing more can be written for this claim.
QUEUE_CONNECTION_ERRORS = (
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    # Server shutting down, restarting or in recovery (57P01, 57P02, 57P03).
    asyncpg.OperatorInterventionError,
    ConnectionError,
    OSError,
    QueueCommandTimeout,
)


class DeadlineDriver(AsyncpgDriver):
    """PGQueuer's asyncpg driver with a deadline on every command.

    The deadline includes waiting for the shared connection. On expiry the connection is
    closed, which cancels the executions that depend on it; the supervisor reconnects. Any
    command error raised while the connection is dead is re-raised as QueueConnectionLost.
    """

    def __init__(
        self,
        connection: asyncpg.Connection,
        timeout: timedelta,
        on_timeout: Callable[[], None] = lambda: None,
    ) -> None:
        super().__init__(connection)
        self._timeout = timeout.total_seconds()
        self._on_timeout = on_timeout
        self.lost = asyncio.Event()
        """Set once the connection is terminated or timed out."""
        self.notifications: int | None = None
        """Notifications received so far (a queue row inserted or deleted, a wake, a
        cancellation, a health check); None until a channel is listened to."""
        connection.add_termination_listener(lambda _: self.lost.set())

    @property
    def connection_lost(self) -> bool:
        return self.lost.is_set() or self._connection.is_closed()

    async def is_loss(self, error: BaseException) -> bool:
        """Whether `error` means the queue connection is gone."""
        if isinstance(error, QUEUE_CONNECTION_ERRORS) or self.connection_lost:
            return True
        if isinstance(error, asyncpg.PostgresError):
            return False  # the server answered it, so the connection was alive
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.lost.wait(), CLOSE_NOTICE_SECONDS)
        return self.connection_lost

    async def _bounded(self, work: Awaitable[T]) -> T:
        try:
            async with asyncio.timeout(self._timeout):
                return await work
        except TimeoutError:
            self._connection.terminate()
            self.lost.set()
            self._on_timeout()
            raise QueueCommandTimeout(f"queue command exceeded {self._timeout:.1f}s") from None
        except QUEUE_CONNECTION_ERRORS:
            raise
        except Exception as error:
            if await self.is_loss(error):
                raise QueueConnectionLost(
                    f"queue connection lost ({type(error).__name__}: {error})"
                ) from error
            raise

    async def fetch(self, query: str, *args: Any) -> list[dict[str, Any]]:
        return await self._bounded(super().fetch(query, *args))

    async def execute(self, query: str, *args: Any) -> str:
        return await self._bounded(super().execute(query, *args))

    async def notify(self, channel: str, payload: str) -> None:
        await self._bounded(super().notify(channel, payload))

    async def add_listener(
        self, channel: str, callback: Callable[[str | bytes | bytearray], None]
    ) -> None:
        def counted(payload: str | bytes | bytearray) -> None:
            self.notifications = (self.notifications or 0) + 1
            callback(payload)

        await self._bounded(super().add_listener(channel, counted))
        self.notifications = self.notifications or 0
