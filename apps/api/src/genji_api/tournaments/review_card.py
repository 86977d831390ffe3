"""The manual-review card of a tournament run (api.tournament.completion.created), in the
caller's transaction. The submit route (a run with a video) and the OCR fallback both queue it
under this one key, so a run gets at most one card."""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import TournamentCompletionCreatedEvent

from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_job


async def enqueue_tournament_review_card(
    conn: asyncpg.Connection,
    *,
    tournament_completion_id: int,
    cycle_id: int,
    user_id: int,
    time: float,
    video: str | None,
    screenshot: str,
    trace: Trace | None,
) -> JobStatusResponse:
    return await enqueue_job(
        conn,
        payload=TournamentCompletionCreatedEvent(
            completion_id=tournament_completion_id,
            cycle_id=cycle_id,
            user_id=user_id,
            time=time,
            video=video,
            screenshot=screenshot,
        ),
        event_key=f"tournament:completion:{tournament_completion_id}",
        entity_key=f"tournament-completion:{tournament_completion_id}",
        trace=trace,
    )
