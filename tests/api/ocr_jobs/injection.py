"""A failure injected on the insertion of an OCR decision, created by the database owner."""

from __future__ import annotations

from typing import Literal

import asyncpg

DecisionFailure = Literal["insert", "commit"]


async def fail_decisions(conn: asyncpg.Connection, table: str, at: DecisionFailure) -> None:
    """Make recording a decision in `table` fail at the INSERT itself or at COMMIT."""
    await conn.execute(
        "CREATE FUNCTION public.injected_decision_failure() RETURNS trigger LANGUAGE plpgsql AS "
        "$$BEGIN RAISE EXCEPTION 'injected decision failure'; END$$"
    )
    if at == "insert":
        await conn.execute(
            f"CREATE TRIGGER injected_decision_failure BEFORE INSERT ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION public.injected_decision_failure()"
        )
    else:
        await conn.execute(
            f"CREATE CONSTRAINT TRIGGER injected_decision_failure AFTER INSERT ON {table} "
            "DEFERRABLE INITIALLY DEFERRED "
            "FOR EACH ROW EXECUTE FUNCTION public.injected_decision_failure()"
        )


async def stop_failing(conn: asyncpg.Connection) -> None:
    await conn.execute("DROP FUNCTION public.injected_decision_failure() CASCADE")
