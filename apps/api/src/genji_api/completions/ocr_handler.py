"""`completion.ocr.requested`: auto-verify a screenshot-only completion, or hand it to review.

One run has the shape every OCR job shares (genji_api.ocr.attempt): read the completion, ask the
OCR service with no transaction open, then, in one transaction holding the completion's row
lock, check again and record the decision together with its consequences (the verdict and its
jobs on a match, the manual-review jobs and notification otherwise).

A retry after that transaction committed finds the decision and does nothing, so no second
card, notice, reward or notification can appear. If the commit fails, the error propagates and
the job is retried. An OCR outage is not retried: it is decided as 'error' and sent to review.
"""

from __future__ import annotations

import logging

import asyncpg
import msgspec
from genji_sdk import JobContext
from genji_sdk.payloads import OcrVerificationRequestedEvent
from genji_worker.executor import Handler

from genji_api.completions.ocr_repository import (
    OcrCandidate,
    lock_candidate,
    read_candidate,
    record_decision,
)
from genji_api.completions.ocr_review import queue_manual_review
from genji_api.completions.verification import apply_completion_verdict
from genji_api.database import Database
from genji_api.http.tracing import Trace
from genji_api.ocr.attempt import attempt_ocr_decision
from genji_api.ocr.decision import OcrDecision
from genji_api.settings import ApiSettings

log = logging.getLogger("genji.api")

AUTO_VERIFIED_REASON = "Auto verified by Genji Shimada"


def _nothing_to_do(completion: OcrCandidate | None) -> str | None:
    """Why the completion needs no OCR decision, or None when it still does."""
    if completion is None:
        return "it no longer exists"
    if completion.decision is not None:
        return f"its OCR decision ({completion.decision}) is already recorded"
    if completion.verified:
        return "it is already verified"
    if not completion.pending:
        return "it was rejected or superseded"
    return None


async def _record(
    conn: asyncpg.Connection,
    completion: OcrCandidate,
    decision: OcrDecision,
    *,
    names: list[str],
    settings: ApiSettings,
    trace: Trace,
) -> None:
    await record_decision(
        conn,
        completion_id=completion.completion_id,
        outcome=decision.outcome,
        extracted=decision.extracted_json(),
    )
    if decision.outcome == "match":
        await apply_completion_verdict(
            conn,
            completion_id=completion.completion_id,
            verified=True,
            verified_by=settings.bot_user_id,
            reason=AUTO_VERIFIED_REASON,
            trace=trace,
        )
    else:
        await queue_manual_review(conn, completion, decision, names=names, trace=trace)


async def verify_completion_by_ocr(
    database: Database,
    settings: ApiSettings,
    event: OcrVerificationRequestedEvent,
    *,
    trace: Trace,
) -> OcrDecision | None:
    """Decide the completion by OCR; None when there was nothing (left) to decide."""
    completion_id = event.completion_id

    async def record(
        conn: asyncpg.Connection, current: OcrCandidate, decision: OcrDecision, names: list[str]
    ) -> None:
        await _record(conn, current, decision, names=names, settings=settings, trace=trace)

    return await attempt_ocr_decision(
        database,
        settings,
        label=f"completion {completion_id}",
        read=lambda conn: read_candidate(conn, completion_id),
        lock=lambda conn: lock_candidate(conn, completion_id),
        nothing_to_do=_nothing_to_do,
        record=record,
    )


def make_completion_ocr_handler(database: Database, settings: ApiSettings) -> Handler:
    async def handle(payload: msgspec.Struct, context: JobContext) -> None:
        if not isinstance(payload, OcrVerificationRequestedEvent):
            raise TypeError(f"completion.ocr.requested got {type(payload).__name__}")
        await verify_completion_by_ocr(database, settings, payload, trace=context.trace)

    return handle
