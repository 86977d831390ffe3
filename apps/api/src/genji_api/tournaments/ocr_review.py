"""Hand a tournament run that OCR could not verify to the moderators (caller's transaction)."""

from __future__ import annotations

import asyncpg

from genji_api.http.tracing import Trace
from genji_api.notifications.dispatch import create_and_dispatch
from genji_api.ocr.decision import OcrDecision
from genji_api.tournaments.ocr_repository import TournamentOcrCandidate
from genji_api.tournaments.review_card import enqueue_tournament_review_card


async def queue_tournament_review(
    conn: asyncpg.Connection,
    completion: TournamentOcrCandidate,
    decision: OcrDecision,
    *,
    trace: Trace | None,
) -> None:
    tc_id = completion.tournament_completion_id
    await enqueue_tournament_review_card(
        conn,
        tournament_completion_id=tc_id,
        cycle_id=completion.cycle_id,
        user_id=completion.user_id,
        time=completion.time,
        video=completion.video,
        screenshot=completion.screenshot,
        trace=trace,
    )
    code = completion.map_code
    if decision.extracted is not None:
        body = (
            f"Your tournament run on {code} failed automatic verification "
            "and is now awaiting manual verification."
        )
    else:
        body = (
            f"Automatic verification of your tournament run on {code} encountered an error. "
            "It is now awaiting manual verification."
        )
    await create_and_dispatch(
        conn,
        user_id=completion.user_id,
        event_type="auto_verify_failed",
        title="Auto-verification failed",
        body=body,
        metadata={
            "tournament_completion_id": tc_id,
            "cycle_id": completion.cycle_id,
            "map_code": code,
        },
        trace=trace,
    )
