"""Rows and job contexts for running the OCR jobs in process.

Screenshot URLs steer the fake OCR service: their path names the answer (`ocr-match`,
`ocr-mismatch`, `ocr-error`, `ocr-slow`), and a counter keeps each URL unique so the fake's
request counts belong to one test.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg
from genji_sdk import ClaimToken, JobContext
from genji_sdk.payloads import (
    OcrVerificationRequestedEvent,
    TournamentOcrVerificationRequestedEvent,
)

from . import seed

_shots = itertools.count(1)

RUN_TIME = 61.25
# Short enough for the slow-answer test to finish quickly, long enough for a loaded machine.
OCR_TIMEOUT_SECONDS = 2.0


def screenshot(answer: str) -> str:
    return f"https://img.example/{answer}/run-{next(_shots)}.png"


def job_context(event_name: str, event_key: str) -> JobContext:
    """A context as the worker builds it; the OCR jobs use only its trace."""
    return JobContext(
        job_id=uuid.uuid4(),
        event_name=event_name,
        event_key=event_key,
        attempt=1,
        retry_generation=0,
        claim=ClaimToken(
            queue_job_id=0, queue_manager_id=uuid.uuid4(), claimed_at=datetime.now(UTC)
        ),
        trace={},
    )


async def bot(conn: asyncpg.Connection, bot_user_id: int) -> None:
    await seed.user(conn, bot_user_id, name="Genji Shimada")


@dataclass(frozen=True)
class SeededCompletion:
    completion_id: int
    user_id: int
    map_code: str
    screenshot: str

    def event(self) -> OcrVerificationRequestedEvent:
        return OcrVerificationRequestedEvent(
            completion_id=self.completion_id,
            user_id=self.user_id,
            code=self.map_code,
            time=RUN_TIME,
            screenshot=self.screenshot,
        )

    def context(self) -> JobContext:
        return job_context("completion.ocr.requested", f"completion:ocr:{self.completion_id}")


async def pending_completion(conn: asyncpg.Connection, answer: str) -> SeededCompletion:
    """A screenshot-only completion awaiting verification by a user with an Overwatch name."""
    user_id = await seed.user(conn)
    await seed.overwatch_name(conn, user_id, f"Runner{user_id % 100000}")
    map_id, code = await seed.game_map(conn)
    shot = screenshot(answer)
    completion_id: int = await conn.fetchval(
        "INSERT INTO core.completions (map_id, user_id, time, screenshot) "
        "VALUES ($1, $2, $3, $4) RETURNING id",
        map_id,
        user_id,
        RUN_TIME,
        shot,
    )
    return SeededCompletion(completion_id, user_id, code, shot)


@dataclass(frozen=True)
class SeededTournamentCompletion:
    tournament_completion_id: int
    cycle_id: int
    user_id: int
    map_code: str
    screenshot: str

    def event(self) -> TournamentOcrVerificationRequestedEvent:
        return TournamentOcrVerificationRequestedEvent(
            tournament_completion_id=self.tournament_completion_id,
            cycle_id=self.cycle_id,
            user_id=self.user_id,
            code=self.map_code,
            time=RUN_TIME,
            screenshot=self.screenshot,
        )

    def context(self) -> JobContext:
        return job_context(
            "tournament.ocr.requested", f"tournament:ocr:{self.tournament_completion_id}"
        )


async def pending_tournament_completion(
    conn: asyncpg.Connection, answer: str
) -> SeededTournamentCompletion:
    """A screenshot-only run on an active cycle (a category with participation XP)."""
    user_id = await seed.user(conn)
    await seed.overwatch_name(conn, user_id, f"Runner{user_id % 100000}")
    map_id, code = await seed.game_map(conn)
    category_id: int = await conn.fetchval(
        "INSERT INTO tournaments.categories (name, participation_xp) VALUES ($1, 20) RETURNING id",
        f"category-{code}",
    )
    edition_id: int = await conn.fetchval(
        "INSERT INTO tournaments.editions (started_at, ends_at) "
        "VALUES (now() - interval '1 day', now() + interval '6 days') RETURNING id"
    )
    cycle_id: int = await conn.fetchval(
        "INSERT INTO tournaments.cycles (edition_id, category_id, map_id, status, started_at) "
        "VALUES ($1, $2, $3, 'active', now() - interval '1 day') RETURNING id",
        edition_id,
        category_id,
        map_id,
    )
    shot = screenshot(answer)
    tc_id: int = await conn.fetchval(
        "INSERT INTO tournaments.completions (cycle_id, user_id, map_id, time, screenshot) "
        "VALUES ($1, $2, $3, $4, $5) RETURNING id",
        cycle_id,
        user_id,
        map_id,
        RUN_TIME,
        shot,
    )
    return SeededTournamentCompletion(tc_id, cycle_id, user_id, code, shot)


async def jobs_of(conn: asyncpg.Connection) -> dict[str, str]:
    """event_key -> event name of every job identity."""
    rows = await conn.fetch("SELECT event_key, action FROM jobs WHERE event_key IS NOT NULL")
    return {row["event_key"]: row["action"] for row in rows}
