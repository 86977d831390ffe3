"""Watching other sessions wait on locks, from an observer session outside any transaction.

PostgreSQL reads pg_stat_activity once per transaction, at its first use, and shows that picture
until the transaction ends: the backends listed, their `state` and `query` stay as they were
(only `wait_event_type` is read live). A session that holds a lock in an open transaction
therefore cannot see another session start waiting for it; the holder must not be the observer.
pg_locks and pg_blocking_pids() are read live on every statement.
"""

from __future__ import annotations

import asyncpg

LOCK_WAITS = """
SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity
WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name = $1
"""


def _observer(conn: asyncpg.Connection) -> asyncpg.Connection:
    if conn.is_in_transaction():
        raise AssertionError("an observer in a transaction sees a frozen pg_stat_activity")
    return conn


async def calls_waiting_on_locks(observer: asyncpg.Connection, function: str) -> int:
    """Other sessions blocked on a lock inside a statement that calls `function`."""
    count: int = await _observer(observer).fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
        "AND query LIKE '%' || $1 || '(%' AND pid <> pg_backend_pid()",
        function,
    )
    return count


async def held_up_by(observer: asyncpg.Connection, holder: int, application_name: str) -> int:
    """Sessions of `application_name` waiting on a lock whose wait ends only after `holder`'s
    transaction: blocked by `holder` itself or queued behind another such session. A later
    request for a row lock queues behind the first waiter and names only that one as its
    blocker; lighter modes (FOR KEY SHARE) all name the holder."""
    rows = await _observer(observer).fetch(LOCK_WAITS, application_name)
    waits = {row["pid"]: set(row["blockers"]) for row in rows}
    reached = {pid for pid, blockers in waits.items() if holder in blockers}
    while more := {pid for pid, blockers in waits.items() if blockers & reached} - reached:
        reached |= more
    return len(reached)
