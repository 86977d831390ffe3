"""Make the API fail to record something until the test allows it again, with a real trigger.

A send whose result cannot be recorded (its binding's completion, or the domain column that
mirrors it) leaves the message delivered and the job retrying; the retry must find the message
instead of sending another.
"""

from __future__ import annotations

from uuid import UUID

import asyncpg


async def refuse_updates(conn: asyncpg.Connection, table: str, when: str) -> None:
    """Every UPDATE of `table` whose row matches `when` (over NEW) raises until allowed again."""
    await conn.execute(
        "CREATE FUNCTION public.refused_update() RETURNS trigger LANGUAGE plpgsql AS "
        "$$BEGIN RAISE EXCEPTION 'refused update of %', TG_TABLE_NAME; END$$"
    )
    await conn.execute(
        f"CREATE TRIGGER refused_update BEFORE UPDATE ON {table} FOR EACH ROW "
        f"WHEN ({when}) EXECUTE FUNCTION public.refused_update()"
    )


async def allow_updates(conn: asyncpg.Connection) -> None:
    await conn.execute("DROP FUNCTION public.refused_update() CASCADE")


async def handler_failures(conn: asyncpg.Connection, job_id: UUID | str) -> int:
    failures: int = await conn.fetchval(
        "SELECT handler_failures FROM jobs WHERE id = $1", UUID(str(job_id))
    )
    return failures


async def bindings(conn: asyncpg.Connection, job_id: UUID | str) -> list[asyncpg.Record]:
    """The job's send bindings: effect key, destination, state, message id."""
    return list(
        await conn.fetch(
            "SELECT effect_key, destination, state, message_id FROM effect_bindings "
            "WHERE job_id = $1 ORDER BY effect_key, destination",
            UUID(str(job_id)),
        )
    )
