"""A tournament completion's verdict, applied inside the caller's transaction.

Verified is terminal. Each verdict that changes the status is one tournaments.verdicts row and
one api.tournament.verification.changed job keyed by it; repeating the current verdict returns
the latest verdict's job. The first verification of a user in a cycle grants participation XP
through the tournaments.xp_grants ledger, in the same transaction as the verdict.
"""

from __future__ import annotations

import asyncpg
from genji_sdk.jobs import JobStatusResponse
from genji_sdk.payloads import TournamentVerificationChangedEvent

from genji_api.errors import ConflictError, NotFoundError
from genji_api.http.tracing import Trace
from genji_api.queue.enqueue import enqueue_job
from genji_api.tournaments import verdict_repository as repo
from genji_api.tournaments.rows import JudgedCompletion
from genji_api.xp.grants import grant_xp


def tournament_verification_event_key(verdict_id: int) -> str:
    return f"tournament:verification:{verdict_id}"


def participation_grant_key(cycle_id: int, user_id: int) -> str:
    return f"tournament:{cycle_id}:{user_id}:participation"


async def _enqueue_verdict(
    conn: asyncpg.Connection,
    completion: JudgedCompletion,
    *,
    verdict_id: int,
    verified: bool,
    trace: Trace | None,
) -> JobStatusResponse:
    return await enqueue_job(
        conn,
        payload=TournamentVerificationChangedEvent(
            tournament_completion_id=completion.id,
            transition_id=verdict_id,
            cycle_id=completion.cycle_id,
            user_id=completion.user_id,
            verified=verified,
            time=float(completion.time),
        ),
        event_key=tournament_verification_event_key(verdict_id),
        entity_key=f"tournament-completion:{completion.id}",
        trace=trace,
    )


async def _grant_participation(
    conn: asyncpg.Connection, completion: JudgedCompletion, trace: Trace | None
) -> None:
    cycle_id, user_id = completion.cycle_id, completion.user_id
    amount = await repo.participation_xp(conn, cycle_id)
    if not await repo.claim_participation(conn, cycle_id=cycle_id, user_id=user_id, amount=amount):
        return
    await grant_xp(
        conn,
        user_id=user_id,
        base_amount=amount,
        xp_type="Tournament",
        grant_key=participation_grant_key(cycle_id, user_id),
        reason="Tournament participation",
        trace=trace,
    )


async def apply_tournament_verdict(
    conn: asyncpg.Connection,
    *,
    tournament_completion_id: int,
    verified: bool,
    verified_by: int,
    trace: Trace | None = None,
) -> JobStatusResponse:
    """Verify or reject a tournament completion; never commits.

    NotFoundError for an unknown id; ConflictError when rejecting a verified completion.
    """
    completion = await repo.lock_tournament_completion(conn, tournament_completion_id)
    if completion is None:
        raise NotFoundError(f"Tournament completion {tournament_completion_id} does not exist.")
    status = completion.status
    if status == "verified" and not verified:
        raise ConflictError(
            "This tournament completion is already verified and cannot be rejected."
        )
    if status == ("verified" if verified else "rejected"):
        latest = await repo.latest_verdict(conn, tournament_completion_id)
        if latest is not None and latest.verified == verified:
            return await _enqueue_verdict(
                conn, completion, verdict_id=latest.id, verified=verified, trace=trace
            )
    verdict_id = await repo.record_verdict(
        conn,
        tournament_completion_id=tournament_completion_id,
        verified=verified,
        verified_by=verified_by,
    )
    job = await _enqueue_verdict(
        conn, completion, verdict_id=verdict_id, verified=verified, trace=trace
    )
    if verified:
        await _grant_participation(conn, completion, trace)
    return job


async def propagate_core_verdict(
    conn: asyncpg.Connection,
    *,
    tournament_completion_id: int,
    verified: bool,
    verified_by: int,
    trace: Trace | None = None,
) -> JobStatusResponse | None:
    """Give a linked tournament completion its core completion's verdict.

    A verified tournament completion is terminal: a later core reject leaves it verified (None).
    """
    status = await conn.fetchval(
        "SELECT status FROM tournaments.completions WHERE id = $1", tournament_completion_id
    )
    if status == "verified" and not verified:
        return None
    return await apply_tournament_verdict(
        conn,
        tournament_completion_id=tournament_completion_id,
        verified=verified,
        verified_by=verified_by,
        trace=trace,
    )
