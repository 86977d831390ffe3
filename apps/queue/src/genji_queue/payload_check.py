"""sql/payload_check.sql: payload_problem (the rest of the file is its internals)."""

from __future__ import annotations

from typing import Any

import msgspec

from genji_queue.calls import Session, sql_call

_PROBLEM = sql_call("payload_problem", "SELECT payload_problem($1, $2, $3::jsonb) AS problem")


async def payload_problem(
    session: Session, event_name: str, version: int, payload: Any
) -> str | None:
    """None when the payload meets its contract (what enqueue_job accepts), else the problem."""
    row = await _PROBLEM.row(session, event_name, version, msgspec.json.encode(payload).decode())
    problem: str | None = row["problem"]
    return problem
