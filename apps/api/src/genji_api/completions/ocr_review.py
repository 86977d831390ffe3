"""Hand a completion that OCR could not verify to the moderators, inside the caller's transaction.

A mismatch posts the staff diagnostic notice, queues the review card and tells the user; an
OCR error does the same without the notice. Every job is keyed by the completion, so the
fallback of one decision is one notice and one card.
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg
from genji_sdk.payloads import FailedAutoverifyEvent

from genji_api.completions.ocr_repository import OcrCandidate
from genji_api.completions.review_card import enqueue_review_card
from genji_api.http.tracing import Trace
from genji_api.notifications.dispatch import create_and_dispatch
from genji_api.ocr.decision import OcrDecision
from genji_api.queue.enqueue import enqueue_job


def autoverification_failed_event_key(completion_id: int) -> str:
    return f"completion:autoverification-failed:{completion_id}"


async def queue_manual_review(
    conn: asyncpg.Connection,
    completion: OcrCandidate,
    decision: OcrDecision,
    *,
    names: Sequence[str],
    trace: Trace | None,
) -> None:
    if decision.extracted is not None:
        await enqueue_job(
            conn,
            payload=FailedAutoverifyEvent(
                completion_id=completion.completion_id,
                submitted_code=completion.map_code,
                submitted_time=completion.time,
                submitted_user_names=list(names),
                user_id=completion.user_id,
                extracted=decision.extracted,
                code_match=decision.code_match,
                time_match=decision.time_match,
                user_match=decision.user_match,
                screenshot=completion.screenshot,
            ),
            event_key=autoverification_failed_event_key(completion.completion_id),
            # Unordered: a staff diagnostic that fails must not hold the review card back.
            entity_key=None,
            trace=trace,
        )
    await enqueue_review_card(
        conn, completion_id=completion.completion_id, user_id=completion.user_id, trace=trace
    )
    code = completion.map_code
    if decision.extracted is not None:
        body = (
            f"Your completion on {code} failed automatic verification "
            "and is now awaiting manual verification."
        )
    else:
        body = (
            f"Automatic verification of your completion on {code} encountered an error. "
            "It is now awaiting manual verification."
        )
    await create_and_dispatch(
        conn,
        user_id=completion.user_id,
        event_type="auto_verify_failed",
        title="Auto-verification failed",
        body=body,
        metadata={"completion_id": completion.completion_id, "map_code": code},
        trace=trace,
    )
