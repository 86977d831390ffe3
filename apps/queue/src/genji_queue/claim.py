"""sql/claim.sql: queue_claim."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from genji_queue.calls import Session, sql_call

_CLAIM = sql_call("queue_claim", "SELECT * FROM queue_claim($1, $2, $3, $4)")


async def queue_claim(
    session: Session,
    manager: UUID,
    entrypoints: Sequence[str],
    batch: int,
    worker_limit: int | None,
) -> list[dict[str, Any]]:
    """Claim up to `batch` jobs for `manager`; returns the claimed pgqueuer rows."""
    rows = await _CLAIM.rows(session, manager, list(entrypoints), batch, worker_limit)
    return [dict(row) for row in rows]
