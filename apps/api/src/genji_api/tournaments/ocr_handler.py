"""`tournament.ocr.requested`: auto-verify a screenshot-only tournament run, or send it to review.

The shape every OCR job shares (genji_api.ocr.attempt): read, ask the OCR service outside any
transaction, then record the decision and its consequences in one transaction under the run's
row lock. A match verifies the run (its verdict job and participation XP commit with the
decision); a mismatch or an OCR outage queues the review card and notifies the user. A recorded
decision makes every later run of the job a no-op.
"""

from __future__ import annotations

import logging

import asyncpg
import msgspec
from genji_sdk import JobContext
from genji_sdk.payloads import TournamentOcrVerificationRequestedEvent
from genji_worker.executor import Handler

from genji_api.database import Database
from genji_api.http.tracing import Trace
from genji_api.ocr.attempt import attempt_ocr_decision
from genji_api.ocr.decision import OcrDecision
from genji_api.settings import ApiSettings
from genji_api.tournaments.ocr_repository import (
    TournamentOcrCandidate,
    lock_candidate,
    read_candidate,
    record_decision,
)
from genji_api.tournaments.ocr_review import queue_tournament_review
from genji_api.tournaments.verdicts import apply_tournament_verdict

log = logging.getLogger("genji.api")


def _nothing_to_do(completion: TournamentOcrCandidate | None) -> str | None:
    if completion is None:
        return "it no longer exists"
    if completion.decision is not None:
        return f"its OCR decision ({completion.decision}) is already recorded"
    if completion.status != "pending":
        return f"it is already {completion.status}"
    return None


async def _record(
    conn: asyncpg.Connection,
    completion: TournamentOcrCandidate,
    decision: OcrDecision,
    *,
    settings: ApiSettings,
    trace: Trace,
) -> None:
    await record_decision(
        conn,
        tournament_completion_id=completion.tournament_completion_id,
        outcome=decision.outcome,
        extracted=decision.extracted_json(),
    )
    if decision.outcome == "match":
        await apply_tournament_verdict(
            conn,
            tournament_completion_id=completion.tournament_completion_id,
            verified=True,
            verified_by=settings.bot_user_id,
            trace=trace,
        )
    else:
        await queue_tournament_review(conn, completion, decision, trace=trace)


async def verify_tournament_completion_by_ocr(
    database: Database,
    settings: ApiSettings,
    event: TournamentOcrVerificationRequestedEvent,
    *,
    trace: Trace,
) -> OcrDecision | None:
    """Decide the tournament run by OCR; None when there was nothing (left) to decide."""
    tc_id = event.tournament_completion_id

    async def record(
        conn: asyncpg.Connection,
        current: TournamentOcrCandidate,
        decision: OcrDecision,
        names: list[str],
    ) -> None:
        await _record(conn, current, decision, settings=settings, trace=trace)

    return await attempt_ocr_decision(
        database,
        settings,
        label=f"tournament completion {tc_id}",
        read=lambda conn: read_candidate(conn, tc_id),
        lock=lambda conn: lock_candidate(conn, tc_id),
        nothing_to_do=_nothing_to_do,
        record=record,
    )


def make_tournament_ocr_handler(database: Database, settings: ApiSettings) -> Handler:
    async def handle(payload: msgspec.Struct, context: JobContext) -> None:
        if not isinstance(payload, TournamentOcrVerificationRequestedEvent):
            raise TypeError(f"tournament.ocr.requested got {type(payload).__name__}")
        await verify_tournament_completion_by_ocr(database, settings, payload, trace=context.trace)

    return handle
