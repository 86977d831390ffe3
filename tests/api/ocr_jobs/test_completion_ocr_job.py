"""completion.ocr.requested run in process on the real database against the fake OCR server.

Each test seeds a pending completion whose screenshot URL picks the fake's answer, runs the
handler once (or more), and reads what committed from the owner's independent connection.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import asyncpg
import pytest
from genji_api.completions.ocr_handler import AUTO_VERIFIED_REASON, make_completion_ocr_handler
from genji_api.database import Database
from genji_api.settings import ApiSettings
from genji_devstack.fake_ocr import FakeOcr

from tests.api.db_state import table_counts
from tests.support.harness import eventually
from tests.support.seed_ocr_jobs import (
    OCR_TIMEOUT_SECONDS,
    SeededCompletion,
    jobs_of,
    pending_completion,
)
from tests.support.testdb import Connect

from .injection import DecisionFailure, fail_decisions, stop_failing

pytestmark = pytest.mark.queue


async def _run(database: Database, settings: ApiSettings, seeded: SeededCompletion) -> None:
    handler = make_completion_ocr_handler(database, settings)
    await handler(seeded.event(), seeded.context())


async def _decision(owner: asyncpg.Connection, completion_id: int) -> dict[str, Any] | None:
    row = await owner.fetchrow(
        "SELECT outcome, extracted FROM completions.ocr_decisions WHERE completion_id = $1",
        completion_id,
    )
    if row is None:
        return None
    extracted = None if row["extracted"] is None else json.loads(row["extracted"])
    return {"outcome": row["outcome"], "extracted": extracted}


async def _completion(owner: asyncpg.Connection, completion_id: int) -> asyncpg.Record:
    row = await owner.fetchrow(
        "SELECT verified, verified_by, reason FROM core.completions WHERE id = $1", completion_id
    )
    assert row is not None
    return row


async def _notifications(owner: asyncpg.Connection, user_id: int) -> list[dict[str, Any]]:
    rows = await owner.fetch(
        "SELECT event_type, title, body, metadata FROM notifications.events WHERE user_id = $1",
        user_id,
    )
    return [{**row, "metadata": json.loads(row["metadata"])} for row in rows]


def _review_keys(seeded: SeededCompletion) -> tuple[str, str]:
    return (
        f"completion:submission:{seeded.user_id}:{seeded.completion_id}",
        f"completion:autoverification-failed:{seeded.completion_id}",
    )


async def test_match_verifies_and_enqueues_the_verification(
    database: Database, ocr_settings: ApiSettings, owner: asyncpg.Connection, fake_ocr: FakeOcr
) -> None:
    seeded = await pending_completion(owner, "ocr-match")
    await _run(database, ocr_settings, seeded)

    completion = await _completion(owner, seeded.completion_id)
    assert completion["verified"] is True
    assert completion["verified_by"] == ocr_settings.bot_user_id
    assert completion["reason"] == AUTO_VERIFIED_REASON
    decision = await _decision(owner, seeded.completion_id)
    assert decision is not None and decision["outcome"] == "match"
    assert decision["extracted"]["code"] == seeded.map_code
    jobs = await jobs_of(owner)
    assert "api.completion.verification" in jobs.values()
    submission, notice = _review_keys(seeded)
    assert submission not in jobs and notice not in jobs
    assert await _notifications(owner, seeded.user_id) == []
    assert fake_ocr.request_counts() == {seeded.screenshot: 1}


async def test_mismatch_persists_the_manual_review_fallback(
    database: Database, ocr_settings: ApiSettings, owner: asyncpg.Connection
) -> None:
    seeded = await pending_completion(owner, "ocr-mismatch")
    await _run(database, ocr_settings, seeded)

    completion = await _completion(owner, seeded.completion_id)
    assert completion["verified"] is False and completion["verified_by"] is None
    decision = await _decision(owner, seeded.completion_id)
    assert decision is not None and decision["outcome"] == "mismatch"
    jobs = await jobs_of(owner)
    submission, notice = _review_keys(seeded)
    assert jobs[submission] == "api.completion.submission"
    assert jobs[notice] == "api.completion.autoverification.failed"
    assert "api.completion.verification" not in jobs.values()
    envelope = json.loads(
        await owner.fetchval(
            "SELECT q.payload FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id "
            "WHERE j.event_key = $1",
            notice,
        )
    )
    assert envelope["payload"]["time_match"] is False
    assert envelope["payload"]["code_match"] is True
    (notification,) = await _notifications(owner, seeded.user_id)
    assert notification["event_type"] == "auto_verify_failed"
    assert "failed" in notification["body"]
    assert "awaiting manual verification" in notification["body"]
    assert notification["metadata"] == {
        "completion_id": seeded.completion_id,
        "map_code": seeded.map_code,
    }
    assert "api.notification.delivery" in jobs.values()


async def test_ocr_error_falls_back_to_manual_review_without_the_notice(
    database: Database, ocr_settings: ApiSettings, owner: asyncpg.Connection
) -> None:
    seeded = await pending_completion(owner, "ocr-error")
    await _run(database, ocr_settings, seeded)

    decision = await _decision(owner, seeded.completion_id)
    assert decision is not None and decision["outcome"] == "error"
    assert decision["extracted"] is None
    jobs = await jobs_of(owner)
    submission, notice = _review_keys(seeded)
    assert jobs[submission] == "api.completion.submission"
    assert notice not in jobs
    (notification,) = await _notifications(owner, seeded.user_id)
    assert "encountered an error" in notification["body"]
    assert notification["metadata"]["completion_id"] == seeded.completion_id


async def test_slow_ocr_falls_back_within_the_timeout(
    database: Database, ocr_settings: ApiSettings, owner: asyncpg.Connection
) -> None:
    seeded = await pending_completion(owner, "ocr-slow")
    started = time.monotonic()
    await _run(database, ocr_settings, seeded)
    elapsed = time.monotonic() - started

    assert elapsed < OCR_TIMEOUT_SECONDS + 3.0
    decision = await _decision(owner, seeded.completion_id)
    assert decision is not None and decision["outcome"] == "error"
    submission, _ = _review_keys(seeded)
    assert submission in await jobs_of(owner)


RESOLUTIONS = {
    # The legacy submit flow rejects a pending run by the bot when a faster one replaces it.
    "superseded": "UPDATE core.completions SET verified_by = $2, reason = 'superseded' "
    "WHERE id = $1",
    "verified": "UPDATE core.completions SET verified = true, verified_by = $2 WHERE id = $1",
    "decided": "INSERT INTO completions.ocr_decisions (completion_id, outcome) "
    "SELECT $1, 'error' WHERE $2::bigint IS NOT NULL",
}


@pytest.mark.parametrize("resolution", list(RESOLUTIONS))
async def test_resolved_completion_is_not_verified_again(
    resolution: str,
    database: Database,
    ocr_settings: ApiSettings,
    owner: asyncpg.Connection,
    fake_ocr: FakeOcr,
) -> None:
    seeded = await pending_completion(owner, "ocr-match")
    await owner.execute(RESOLUTIONS[resolution], seeded.completion_id, ocr_settings.bot_user_id)
    before_row = await _completion(owner, seeded.completion_id)
    before = await table_counts(owner)

    await _run(database, ocr_settings, seeded)

    assert await table_counts(owner) == before
    assert await _completion(owner, seeded.completion_id) == before_row
    assert fake_ocr.request_counts() == {}


async def test_state_changed_during_the_ocr_call_records_nothing(
    database: Database, ocr_settings: ApiSettings, owner: asyncpg.Connection, fake_ocr: FakeOcr
) -> None:
    seeded = await pending_completion(owner, "ocr-slow")
    before = await table_counts(owner)
    run = asyncio.create_task(_run(database, ocr_settings, seeded))
    await eventually(
        lambda: asyncio.sleep(0, fake_ocr.request_counts().get(seeded.screenshot)),
        what="the OCR request",
    )
    # A moderator rejects the run while the OCR service is still reading it.
    await owner.execute(
        "UPDATE core.completions SET verified_by = $2, reason = 'no' WHERE id = $1",
        seeded.completion_id,
        ocr_settings.bot_user_id,
    )
    await run

    assert await table_counts(owner) == before
    assert await _decision(owner, seeded.completion_id) is None


async def test_verdict_committed_while_the_decision_waits_for_the_lock_wins(
    database: Database,
    ocr_settings: ApiSettings,
    owner: asyncpg.Connection,
    connect: Connect,
) -> None:
    seeded = await pending_completion(owner, "ocr-match")
    moderator = await connect("owner")
    verdict = moderator.transaction()
    await verdict.start()
    await moderator.execute(
        "SELECT 1 FROM core.completions WHERE id = $1 FOR UPDATE", seeded.completion_id
    )
    run = asyncio.create_task(_run(database, ocr_settings, seeded))

    async def decision_waits_for_the_lock() -> bool:
        waiting: int = await owner.fetchval(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = 'genji-api' "
            "AND wait_event_type = 'Lock'"
        )
        return waiting > 0

    await eventually(decision_waits_for_the_lock, what="the decision to wait for the row lock")
    await moderator.execute(
        "UPDATE core.completions SET verified_by = $2, reason = 'wrong run' WHERE id = $1",
        seeded.completion_id,
        ocr_settings.bot_user_id,
    )
    await verdict.commit()
    await run

    completion = await _completion(owner, seeded.completion_id)
    assert completion["verified"] is False and completion["reason"] == "wrong run"
    assert await _decision(owner, seeded.completion_id) is None


@pytest.mark.parametrize("answer", ["ocr-match", "ocr-mismatch", "ocr-error"])
async def test_q10_rerun_after_a_committed_decision_creates_nothing(
    answer: str,
    database: Database,
    ocr_settings: ApiSettings,
    owner: asyncpg.Connection,
    fake_ocr: FakeOcr,
) -> None:
    seeded = await pending_completion(owner, answer)
    await _run(database, ocr_settings, seeded)
    after_first = await table_counts(owner)

    await _run(database, ocr_settings, seeded)
    await _run(database, ocr_settings, seeded)

    assert await table_counts(owner) == after_first
    assert fake_ocr.request_counts() == {seeded.screenshot: 1}


@pytest.mark.parametrize("at", ["insert", "commit"])
@pytest.mark.parametrize("answer", ["ocr-match", "ocr-mismatch"])
async def test_decision_commit_failure_raises_and_a_later_run_succeeds(
    answer: str,
    at: DecisionFailure,
    database: Database,
    ocr_settings: ApiSettings,
    owner: asyncpg.Connection,
) -> None:
    seeded = await pending_completion(owner, answer)
    before = await table_counts(owner)
    await fail_decisions(owner, "completions.ocr_decisions", at)
    try:
        with pytest.raises(asyncpg.PostgresError, match="injected decision failure"):
            await _run(database, ocr_settings, seeded)
    finally:
        await stop_failing(owner)
    assert await table_counts(owner) == before

    await _run(database, ocr_settings, seeded)
    decision = await _decision(owner, seeded.completion_id)
    expected = "match" if answer == "ocr-match" else "mismatch"
    assert decision is not None and decision["outcome"] == expected
