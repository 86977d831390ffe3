"""Reads of the jobs a completion request committed, on the test's owner connection."""

from __future__ import annotations

import json
from typing import Any

import asyncpg


async def jobs_of(owner: asyncpg.Connection, action: str) -> list[asyncpg.Record]:
    """Job identities of `action`, oldest first, with their queued envelope's payload."""
    rows = await owner.fetch(
        "SELECT j.id, j.event_key, j.entity_key, convert_from(q.payload, 'UTF8') AS envelope "
        "FROM jobs j LEFT JOIN pgqueuer q ON q.id = j.queue_job_id "
        "WHERE j.action = $1 ORDER BY j.event_seq",
        action,
    )
    return rows


def payload(job: asyncpg.Record) -> dict[str, Any]:
    envelope: dict[str, Any] = json.loads(job["envelope"])
    result: dict[str, Any] = envelope["payload"]
    return result


async def all_actions(owner: asyncpg.Connection) -> list[str]:
    rows = await owner.fetch("SELECT action FROM jobs ORDER BY event_seq")
    return [row["action"] for row in rows]
