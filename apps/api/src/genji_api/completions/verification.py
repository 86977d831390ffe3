"""A completion's verdict, applied inside the caller's transaction.

Each verdict that changes the completion's state is one row of
completions.verification_transitions and one api.completion.verification job keyed by that row,
so verify -> reject -> verify is three jobs. Sending the verdict the completion already has is a
retransmission: it returns the job of the latest transition and records nothing.
"""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import VerificationChangedEvent

from genji_api.completions import verdict_repository as repo
from genji_api.completions.rows import Transition
from genji_api.errors import ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_job
from genji_api.tournaments.verdicts import propagate_core_verdict


def verification_event_key(transition_id: int) -> str:
    return f"completion:verification:{transition_id}"


async def _enqueue_transition(
    conn: asyncpg.Connection, transition: Transition, trace: Trace | None
) -> JobStatusResponse:
    # Built only from the persisted row, so a retransmission resolves to the same job.
    return await enqueue_job(
        conn,
        payload=VerificationChangedEvent(
            completion_id=transition.completion_id,
            transition_id=transition.id,
            verified=transition.verified,
            verified_by=transition.verified_by,
            reason=transition.reason,
        ),
        event_key=verification_event_key(transition.id),
        entity_key=f"completion:{transition.completion_id}",
        trace=trace,
    )


async def apply_completion_verdict(
    conn: asyncpg.Connection,
    *,
    completion_id: int,
    verified: bool,
    verified_by: int,
    reason: str | None,
    trace: Trace | None = None,
    if_pending: bool = False,
) -> JobStatusResponse:
    """Verify or reject a completion and enqueue its announcement; never commits.

    Raises NotFoundError for an unknown completion, and with `if_pending` ConflictError for one
    that already has a verdict (the row lock orders concurrent verdicts). A linked tournament
    completion receives the same verdict in this transaction (a reject leaves an already
    verified one as it is).
    """
    current = await repo.lock_completion(conn, completion_id)
    if current is None:
        raise NotFoundError(f"Completion {completion_id} does not exist.")
    decided = current.verified or current.verified_by is not None
    if decided and current.verified == verified:
        latest = await repo.latest_transition(conn, completion_id)
        # A repeat of the recorded verdict is that verdict (with `if_pending`, only the same
        # moderator's: a request delivered twice).
        if (
            latest is not None
            and latest.verified == verified
            and (not if_pending or latest.verified_by == verified_by)
        ):
            return await _enqueue_transition(conn, latest, trace)
    if if_pending and decided:
        given = "verified" if current.verified else "rejected"
        raise ConflictError(f"Completion {completion_id} was already {given}.")
    transition = await repo.record_verdict(
        conn,
        completion_id=completion_id,
        verified=verified,
        verified_by=verified_by,
        reason=reason,
    )
    job = await _enqueue_transition(conn, transition, trace)
    if current.tournament_completion_id is not None:
        await propagate_core_verdict(
            conn,
            tournament_completion_id=current.tournament_completion_id,
            verified=verified,
            verified_by=verified_by,
            trace=trace,
        )
    return job
