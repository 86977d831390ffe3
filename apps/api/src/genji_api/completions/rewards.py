"""POST /completions/{id}/xp: the XP a verified run earns, decided and granted in one step.

The API reads the run's state and rank under its row lock and grants Completion, Record or
World Record XP through the ledger, so a replayed job (its receipt) and a later verdict job (the
grant keys) cannot grant twice. World-record XP goes once per map and user: the wr_xp_check
flag of the user's runs and the ledger key `world-record:{map}:{user}` both say it was given.
"""

from __future__ import annotations

import asyncpg
from genji_sdk.payloads import XpType

from genji_api.completions import rewards_repository as repo
from genji_api.completions.models import CompletionXpRequest, CompletionXpResponse
from genji_api.completions.rows import RewardedRun
from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.errors import NotFoundError
from genji_api.http.tracing import Trace
from genji_api.xp.grants import XP_AMOUNTS, grant_xp

# The effects handlers request here, and the jobs that may request each.
COMPLETION_XP_EFFECTS = rule(xp=["api.completion.verification"])


def _grant_key(run: RewardedRun, xp_type: XpType) -> str:
    if xp_type == "World Record":
        return f"world-record:{run.map_id}:{run.user_id}"
    return f"completion:{run.id}:{xp_type.lower()}"


async def _reward(
    conn: asyncpg.Connection, completion_id: int, trace: Trace
) -> CompletionXpResponse:
    run = await repo.lock_rewarded_run(conn, completion_id)
    if run is None:
        raise NotFoundError(f"Completion {completion_id} does not exist.")
    if not run.verified or not run.official:
        return CompletionXpResponse(xp_type=None, rank=None, granted=False)
    rank: int | None = None
    xp_type: XpType = "Completion"
    if not run.completion:
        rank = await repo.record_rank(conn, run)
        xp_type = "World Record" if rank == 1 else "Record"
    if xp_type == "World Record":
        if await repo.world_record_rewarded(conn, run.map_id, run.user_id):
            return CompletionXpResponse(xp_type=xp_type, rank=rank, granted=False)
        await repo.mark_world_record_rewarded(conn, completion_id)
    granted = await grant_xp(
        conn,
        user_id=run.user_id,
        base_amount=XP_AMOUNTS[xp_type],
        xp_type=xp_type,
        grant_key=_grant_key(run, xp_type),
        trace=trace,
    )
    return CompletionXpResponse(
        xp_type=xp_type,
        rank=rank,
        granted=granted.applied,
        previous_amount=granted.event.previous_amount,
        new_amount=granted.event.new_amount,
        job_status=granted.job,
    )


async def reward_completion(
    database: Database,
    completion_id: int,
    body: CompletionXpRequest,
    *,
    effect: EffectContext | None,
    trace: Trace,
) -> CompletionXpResponse:
    async def work(conn: asyncpg.Connection) -> CompletionXpResponse:
        return await once(
            conn,
            effect,
            body,
            CompletionXpResponse,
            lambda: _reward(conn, completion_id, trace),
            rule=COMPLETION_XP_EFFECTS,
        )

    return await database.transaction(work)
