"""Runs `python -m genji_api.jobs` as the operator would: its own process, the API's settings
from the environment, a terminal of 80 columns."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass
from uuid import UUID

import asyncpg
from genji_queue.retry import queue_fail

from tests.support.held_jobs import OPERATOR, claim
from tests.support.queue_helpers import enqueue_xp
from tests.support.testdb import Database

OTHER_USER = 1_000_000_000_000_000_777
"""A Discord user who is not a queue operator."""


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str


async def genji_jobs(db: Database, *args: str, **env: str) -> Run:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in ("GENJI_OPERATOR_ID", "QUEUE_OPERATOR_IDS")
    }
    environ |= {"DATABASE_URL": db.dsn, "QUEUE_OPERATOR_IDS": str(OPERATOR), "COLUMNS": "80"}
    environ |= env
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "genji_api.jobs",
        *args,
        env=environ,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode is not None
    return Run(process.returncode, out.decode(), err.decode())


def widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


LONG_ERROR = (
    "POST /api/v3/notifications/events/41/delivery-result answered 503 Service Unavailable: "
    "upstream connect error or disconnect/reset before headers; reset reason: connection "
    "termination (attempt 6 of 6, retry schedule exhausted)"
)
"""A last error as long as real ones get, wider than any terminal line."""


async def held_with_long_error(conn: asyncpg.Connection, key: str) -> UUID:
    job_id = (await enqueue_xp(conn, key, user_id=11)).id
    outcome = await queue_fail(
        conn,
        await claim(conn),
        [],
        {"exception_type": "ApiError", "exception_message": LONG_ERROR},
    )
    assert outcome == "held"
    return job_id
