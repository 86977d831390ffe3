"""Which real database errors the API answers 503 (the database is unreachable) and which stay a
500 (a bug, or a query that is too slow). Each error is produced against a real server."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest
from genji_api.database import Database as ApiDatabase
from genji_api.database import create_pool
from genji_api.http.unavailable import database_unavailable
from genji_devstack.ports import free_port

from tests.support.harness import eventually
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue

DEADLINE = 10.0

Produce = Callable[[Database, Connect], Awaitable[object]]


async def _refused(db: Database, connect: Connect) -> object:
    # Nothing listens on a port just freed.
    return await asyncpg.connect(f"postgresql://nobody@127.0.0.1:{free_port()}/none", timeout=5)


async def _connect_timeout(db: Database, connect: Connect) -> object:
    # A host that accepts the TCP connection and never answers the startup message.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        return await asyncpg.connect(f"postgresql://nobody@127.0.0.1:{port}/none", timeout=0.3)


async def _terminated_mid_query(db: Database, connect: Connect) -> object:
    """The backend is ended while it runs the query: the server's FATAL error arrives on an
    operation in progress."""
    conn, admin = await connect("owner"), await connect("admin")
    pid = conn.get_server_pid()
    sleeping = asyncio.create_task(conn.fetchval("SELECT pg_sleep(10)"))

    async def running() -> bool:
        state = await admin.fetchval("SELECT state FROM pg_stat_activity WHERE pid = $1", pid)
        return bool(state == "active")

    await eventually(running, DEADLINE, "the query to run")
    await admin.fetchval("SELECT pg_terminate_backend($1, 5000)", pid)
    return await asyncio.wait_for(sleeping, DEADLINE)


async def _terminated(db: Database, connect: Connect, *, in_transaction: bool) -> object:
    """The API's own path (`genji_api.database`): the backend is ended during the work. Ended
    at once, asyncpg may be anywhere in the query's protocol exchange, and raises accordingly."""
    admin = await connect("admin")
    pool = await create_pool(db.dsn, min_size=1, max_size=1)
    database = ApiDatabase(pool)

    async def work(conn: asyncpg.Connection) -> object:
        await admin.fetchval("SELECT pg_terminate_backend($1, 5000)", conn.get_server_pid())
        return await conn.fetchval("SELECT 1")

    try:
        if in_transaction:
            return await database.transaction(work)
        return await database.read(work)
    finally:
        await pool.close()


async def _terminated_in_read(db: Database, connect: Connect) -> object:
    return await _terminated(db, connect, in_transaction=False)


async def _terminated_in_transaction(db: Database, connect: Connect) -> object:
    return await _terminated(db, connect, in_transaction=True)


async def _closed_connection(db: Database, connect: Connect) -> object:
    conn = await connect("owner")
    await conn.close()
    return await conn.fetchval("SELECT 1")


async def _closed_pool(db: Database, connect: Connect) -> object:
    pool = await asyncpg.create_pool(db.dsn, min_size=1, max_size=1)
    await pool.close()
    return await pool.fetchval("SELECT 1")


async def _login_refused(db: Database, connect: Connect) -> object:
    admin = await connect("admin")
    await admin.execute(f'ALTER DATABASE "{db.name}" CONNECTION LIMIT 0')
    try:
        return await asyncpg.connect(db.dsn, timeout=5)
    finally:
        await admin.execute(f'ALTER DATABASE "{db.name}" CONNECTION LIMIT -1')


async def _wrong_argument_count(db: Database, connect: Connect) -> object:
    conn = await connect("owner")
    return await conn.fetchval("SELECT $1::int")


async def _statement_timeout(db: Database, connect: Connect) -> object:
    conn = await connect("owner")
    await conn.execute("SET statement_timeout = 50")
    return await conn.fetchval("SELECT pg_sleep(5)")


async def _released_connection(db: Database, connect: Connect) -> object:
    pool = await asyncpg.create_pool(db.dsn, min_size=1, max_size=1)
    try:
        async with pool.acquire() as conn:
            kept = conn
        return await kept.fetchval("SELECT 1")
    finally:
        await pool.close()


async def _sql_error(db: Database, connect: Connect) -> object:
    conn = await connect("owner")
    return await conn.fetchval("SELECT 1 / 0")


async def _unrelated_os_error(db: Database, connect: Connect) -> object:
    return await asyncio.to_thread(Path("/nonexistent/genji").read_text)


CASES: dict[str, tuple[Produce, bool]] = {
    "refused": (_refused, True),
    "connect-timeout": (_connect_timeout, True),
    "terminated-mid-query": (_terminated_mid_query, True),
    "terminated-in-read": (_terminated_in_read, True),
    "terminated-in-transaction": (_terminated_in_transaction, True),
    "closed-connection": (_closed_connection, True),
    "closed-pool": (_closed_pool, True),
    "too-many-connections-at-login": (_login_refused, True),
    "wrong-argument-count": (_wrong_argument_count, False),
    "statement-timeout-57014": (_statement_timeout, False),
    "released-connection": (_released_connection, False),
    "division-by-zero": (_sql_error, False),
    "os-error-outside-asyncpg": (_unrelated_os_error, False),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
async def test_database_unavailable_classifies_real_errors(
    db: Database, connect: Connect, case: str
) -> None:
    produce, outage = CASES[case]
    with pytest.raises(Exception) as raised:
        await asyncio.wait_for(produce(db, connect), DEADLINE)
    assert database_unavailable(raised.value) is outage, repr(raised.value)
