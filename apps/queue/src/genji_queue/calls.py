"""The statement each wrapper sends, declared once per SQL function."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import asyncpg

from genji_queue.errors import translate


class Session(Protocol):
    """Anything that runs a statement and returns its rows: an asyncpg connection, or the
    PGQueuer driver a worker's queue manager runs on."""

    async def fetch(self, query: str, *args: Any) -> Sequence[Any]: ...


@dataclass(frozen=True)
class SqlCall:
    function: str
    """The sql/ function this statement calls."""
    statement: str

    async def rows(self, session: Session, *args: Any) -> Sequence[Any]:
        try:
            return await session.fetch(self.statement, *args)
        except asyncpg.PostgresError as error:
            raise translate(error) from error

    async def row(self, session: Session, *args: Any) -> Any:
        rows = await self.rows(session, *args)
        assert len(rows) == 1, f"{self.function} returned {len(rows)} rows"
        return rows[0]


CALLS: dict[str, SqlCall] = {}


def sql_call(function: str, statement: str) -> SqlCall:
    """Declare the one statement that calls `function`."""
    if function in CALLS:
        raise ValueError(f"{function} already has a wrapper")
    call = CALLS[function] = SqlCall(function, statement)
    return call
