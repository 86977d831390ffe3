"""tournament.ocr.requested run in process on the real database against the fake OCR server."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import pytest
from genji_api.database import Database
from genji_api.settings import ApiSettings
from genji_api.tournaments.ocr_handler import make_tournament_ocr_handler
from genji_devstack.fake_ocr import FakeOcr

from tests.api.db_state import table_counts
from tests.support.seed_ocr_jobs import (
    SeededTournamentCompletion,
    jobs_of,
    pending_tournament_completion,
)

from .injection import DecisionFailure, fail_decisions, stop_failing

pytestmark = pytest.mark.queue


async def _run(
    database: Database, settings: ApiSettings, seeded: SeededTournamentCompletion
) -> None:
    handler = make_tournament_ocr_handler(database, settings)
    await handler(seeded.event(), seeded.context())


async def _decision(owner: asyncpg.Connection, tc_id: int) -> str | None:
    outcome: str | None = await owner.fetchval(
        "SELECT outcome FROM tournaments.ocr_decisions WHERE tournament_completion_id = $1", tc_id
    )
    return outcome


async def _status(owner: asyncpg.Connection, tc_id: int) -> str:
    status: str = await owner.fetchval(
        "SELECT status FROM tournaments.completions WHERE id = $1", tc_id
    )
    return status


async def _notifications(owner: asyncpg.Connection, user_id: int) -> list[dict[str, Any]]:
    rows = await owner.fetch(
        "SELECT event_type, body, metadata FROM notifications.events WHERE user_id = $1", user_id
    )
    return [{**row, "metadata": json.loads(row["metadata"])} for row in rows]


def _review_key(seeded: SeededTournamentCompletion) -> str:
    return f"tournament:completion:{seeded.tournament_completion_id}"


async def test_tournament_match_verifies_the_run(
    database: Database, ocr_settings: ApiSettings, owner: asyncpg.Connection, fake_ocr: FakeOcr
) -> None:
    seeded = await pending_tournament_completion(owner, "ocr-match")
    await _run(database, ocr_settings, seeded)

    tc_id = seeded.tournament_completion_id
    assert await _status(owner, tc_id) == "verified"
    assert await _decision(owner, tc_id) == "match"
    verdict = await owner.fetchrow(
        "SELECT verified, verified_by FROM tournaments.verdicts WHERE tournament_completion_id = $1",
        tc_id,
    )
    assert verdict is not None and tuple(verdict) == (True, ocr_settings.bot_user_id)
    jobs = await jobs_of(owner)
    assert "api.tournament.verification.changed" in jobs.values()
    assert _review_key(seeded) not in jobs
    assert await _notifications(owner, seeded.user_id) == []
    assert fake_ocr.request_counts() == {seeded.screenshot: 1}


@pytest.mark.parametrize(
    ("answer", "wording"),
    [("ocr-mismatch", "failed automatic verification"), ("ocr-error", "encountered an error")],
)
async def test_tournament_mismatch_or_error_queues_the_review(
    answer: str,
    wording: str,
    database: Database,
    ocr_settings: ApiSettings,
    owner: asyncpg.Connection,
) -> None:
    seeded = await pending_tournament_completion(owner, answer)
    await _run(database, ocr_settings, seeded)

    tc_id = seeded.tournament_completion_id
    assert await _status(owner, tc_id) == "pending"
    assert await _decision(owner, tc_id) == answer.removeprefix("ocr-")
    jobs = await jobs_of(owner)
    assert jobs[_review_key(seeded)] == "api.tournament.completion.created"
    assert "api.tournament.verification.changed" not in jobs.values()
    (notification,) = await _notifications(owner, seeded.user_id)
    assert notification["event_type"] == "auto_verify_failed"
    assert wording in notification["body"]
    assert "awaiting manual verification" in notification["body"]
    assert notification["metadata"]["tournament_completion_id"] == tc_id
    assert notification["metadata"]["map_code"] == seeded.map_code


@pytest.mark.parametrize("status", ["verified", "rejected"])
async def test_tournament_resolved_run_is_not_verified_again(
    status: str,
    database: Database,
    ocr_settings: ApiSettings,
    owner: asyncpg.Connection,
    fake_ocr: FakeOcr,
) -> None:
    seeded = await pending_tournament_completion(owner, "ocr-match")
    await owner.execute(
        "UPDATE tournaments.completions SET status = $2 WHERE id = $1",
        seeded.tournament_completion_id,
        status,
    )
    before = await table_counts(owner)

    await _run(database, ocr_settings, seeded)

    assert await table_counts(owner) == before
    assert await _status(owner, seeded.tournament_completion_id) == status
    assert fake_ocr.request_counts() == {}


@pytest.mark.parametrize("answer", ["ocr-match", "ocr-mismatch", "ocr-error"])
async def test_q10_tournament_rerun_after_a_committed_decision_creates_nothing(
    answer: str,
    database: Database,
    ocr_settings: ApiSettings,
    owner: asyncpg.Connection,
    fake_ocr: FakeOcr,
) -> None:
    seeded = await pending_tournament_completion(owner, answer)
    await _run(database, ocr_settings, seeded)
    after_first = await table_counts(owner)

    await _run(database, ocr_settings, seeded)

    assert await table_counts(owner) == after_first
    assert fake_ocr.request_counts() == {seeded.screenshot: 1}


@pytest.mark.parametrize("at", ["insert", "commit"])
async def test_tournament_decision_commit_failure_raises_and_a_later_run_succeeds(
    at: DecisionFailure,
    database: Database,
    ocr_settings: ApiSettings,
    owner: asyncpg.Connection,
) -> None:
    seeded = await pending_tournament_completion(owner, "ocr-match")
    before = await table_counts(owner)
    await fail_decisions(owner, "tournaments.ocr_decisions", at)
    try:
        with pytest.raises(asyncpg.PostgresError, match="injected decision failure"):
            await _run(database, ocr_settings, seeded)
    finally:
        await stop_failing(owner)
    assert await table_counts(owner) == before

    await _run(database, ocr_settings, seeded)
    assert await _status(owner, seeded.tournament_completion_id) == "verified"
