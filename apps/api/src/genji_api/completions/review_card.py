"""The manual-review card of a completion (api.completion.submission), in the caller's
transaction. The submit route and the OCR fallback both queue it under this one key, so a
completion gets at most one card."""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import CompletionCreatedEvent

from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_job


async def enqueue_review_card(
    conn: asyncpg.Connection, *, completion_id: int, user_id: int, trace: Trace | None
) -> JobStatusResponse:
    return await enqueue_job(
        conn,
        payload=CompletionCreatedEvent(completion_id=completion_id),
        event_key=f"completion:submission:{user_id}:{completion_id}",
        entity_key=f"completion:{completion_id}",
        trace=trace,
    )
