"""The API's connection pool and the service transaction boundary."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TypeVar

import asyncpg
from genji_queue.errors import RetryTransactionError

log = logging.getLogger("genji.api")

T = TypeVar("T")

# Raised by the server when a transaction lost a serialization or deadlock race: nothing it
# did was committed, so running the whole transaction again is safe.
_RETRYABLE = (
    RetryTransactionError,
    asyncpg.SerializationError,
    asyncpg.DeadlockDetectedError,
)


# Noted on an error that left its connection closed: whatever asyncpg raised (a lost backend can
# surface mid-protocol as an internal client error), the database went away under the request.
CONNECTION_LOST = "the database connection was lost during this operation"


def _closed(conn: asyncpg.Connection) -> bool:
    try:
        return bool(conn.is_closed())
    except asyncpg.InterfaceError:
        # The pool detaches a connection from its proxy as soon as the connection closes.
        return True


@asynccontextmanager
async def _connection(pool: asyncpg.Pool) -> AsyncIterator[asyncpg.Connection]:
    async with pool.acquire() as conn:
        try:
            yield conn
        except Exception as error:
            if _closed(conn):
                error.add_note(CONNECTION_LOST)
            raise


def _encode_json(value: object) -> str:
    # The queue wrappers bind JSON they already encoded; encoding it again would turn an object
    # into a JSON string. Every other value is encoded here.
    return value if isinstance(value, str) else json.dumps(value)


async def _init_connection(conn: asyncpg.Connection) -> None:
    for kind in ("json", "jsonb"):
        await conn.set_type_codec(
            kind, encoder=_encode_json, decoder=json.loads, schema="pg_catalog"
        )


async def create_pool(dsn: str, *, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    pool = await asyncpg.create_pool(
        dsn,
        min_size=min_size,
        max_size=max_size,
        init=_init_connection,
        server_settings={"application_name": "genji-api"},
    )
    assert pool is not None
    return pool


class Database:
    """The pool behind every service. `transaction` is the only way services write."""

    def __init__(self, pool: asyncpg.Pool, *, attempts: int = 3) -> None:
        self.pool = pool
        self.attempts = attempts

    async def transaction(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """Run `work` in one READ COMMITTED transaction on one pooled connection.

        A serialization failure or deadlock rolls the whole transaction back and runs it again,
        at most `attempts` times in all; any other error rolls it back and propagates. `work`
        must therefore do nothing outside the database that it cannot repeat.
        """
        for attempt in range(1, self.attempts + 1):
            try:
                async with _connection(self.pool) as conn, conn.transaction():
                    return await work(conn)
            except _RETRYABLE as error:
                if attempt == self.attempts:
                    raise
                log.info("transaction lost a race (%s); attempt %d", type(error).__name__, attempt)
        raise AssertionError("unreachable")

    async def read(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """Run read-only `work` on a pooled connection (no transaction)."""
        async with _connection(self.pool) as conn:
            return await work(conn)
