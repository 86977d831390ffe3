"""What a request committed, read from an independent connection, and injected failures."""

from __future__ import annotations

from typing import Literal

import asyncpg

# Every schema that holds business rows, job identities, receipts or queue rows.
SCHEMAS = (
    "public",
    "core",
    "users",
    "maps",
    "playtests",
    "completions",
    "lootbox",
    "notifications",
    "tournaments",
)
# Rows that change without a business transaction (liveness, logs of other tests' workers).
IGNORED = frozenset({"public.queue_workers", "public.pgqueuer_statistics"})


async def table_counts(conn: asyncpg.Connection) -> dict[str, int]:
    """Row count of every table in the business and queue schemas."""
    tables = await conn.fetch(
        "SELECT table_schema, table_name FROM information_schema.tables "
        "WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE' ORDER BY 1, 2",
        list(SCHEMAS),
    )
    counts = {}
    for row in tables:
        name = f"{row['table_schema']}.{row['table_name']}"
        if name in IGNORED:
            continue
        counts[name] = await conn.fetchval(
            f'SELECT count(*) FROM "{row["table_schema"]}"."{row["table_name"]}"'
        )
    return counts


async def job_events(conn: asyncpg.Connection) -> list[str]:
    """Event names of every job identity, oldest first."""
    rows = await conn.fetch("SELECT action FROM jobs ORDER BY created_at, event_seq")
    return [row["action"] for row in rows]


FailurePoint = Literal["commit", "queue_insert"]


async def inject_failure(conn: asyncpg.Connection, where: FailurePoint) -> None:
    """Make every transaction that enqueues a job fail at `where`.

    'queue_insert': inserting the PGQueuer row raises. 'commit': a deferred constraint trigger
    on the job identity raises at COMMIT, after every statement of the transaction succeeded.
    """
    await conn.execute(
        "CREATE FUNCTION public.injected_failure() RETURNS trigger LANGUAGE plpgsql AS "
        "$$BEGIN RAISE EXCEPTION 'injected failure (%)', TG_ARGV[0]; END$$"
    )
    if where == "queue_insert":
        await conn.execute(
            "CREATE TRIGGER injected_failure BEFORE INSERT ON public.pgqueuer "
            "FOR EACH ROW EXECUTE FUNCTION public.injected_failure('queue insertion')"
        )
    else:
        await conn.execute(
            "CREATE CONSTRAINT TRIGGER injected_failure AFTER INSERT ON public.jobs "
            "DEFERRABLE INITIALLY DEFERRED "
            "FOR EACH ROW EXECUTE FUNCTION public.injected_failure('commit')"
        )


async def remove_failure(conn: asyncpg.Connection) -> None:
    await conn.execute("DROP FUNCTION public.injected_failure() CASCADE")
