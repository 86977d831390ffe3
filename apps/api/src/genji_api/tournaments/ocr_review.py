"""Hand a tournament run that OCR could not verify to the moderators (caller's transaction)."""

from __future__ import annotations

import asyncpg
from genji_sdk.payloads import TournamentCompletionCreatedEvent

from genji_api.http.tracing import Trace
from genji_api.notifications.dispatch import create_and_dispatch
from genji_api.ocr.decision import OcrDecision
from genji_api.queue.enqueue import enqueue_job
from genji_api.tournaments.ocr_repository import TournamentOcrCandidate


def tournament_completion_event_key(tournament_completion_id: int) -> str:
    return f"tournament:completion:{tournament_completion_id}"


async def queue_tournament_review(
    conn: asyncpg.Connection,
    completion: TournamentOcrCandidate,
    decision: OcrDecision,
    *,
    trace: Trace | None,
) -> None:
    tc_id = completion.tournament_completion_id
    await enqueue_job(
        conn,
        event_name="api.tournament.completion.created",
        payload=TournamentCompletionCreatedEvent(
            completion_id=tc_id,
            cycle_id=completion.cycle_id,
            user_id=completion.user_id,
            time=completion.time,
            video=completion.video,
            screenshot=completion.screenshot,
        ),
        event_key=tournament_completion_event_key(tc_id),
        entity_key=f"tournament-completion:{tc_id}",
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
