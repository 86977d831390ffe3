"""Records become typed rows at the SQL boundary.

A row type is a frozen dataclass whose field names are the query's column names, so
`kind(**record)` fails loudly when a query and its row type disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

import asyncpg

R = TypeVar("R")


def row_as(kind: type[R], record: asyncpg.Record) -> R:
    return kind(**record)


def maybe_row_as(kind: type[R], record: asyncpg.Record | None) -> R | None:
    return None if record is None else kind(**record)


def rows_as(kind: type[R], records: Iterable[asyncpg.Record]) -> list[R]:
    return [kind(**record) for record in records]
