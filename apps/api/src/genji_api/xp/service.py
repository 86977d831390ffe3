"""A direct XP grant: one per ordinary request, at most one per handler effect."""

from __future__ import annotations

from uuid import uuid4

import asyncpg

from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.errors import BadRequestError
from genji_api.http.tracing import Trace
from genji_api.users.repository import lock_user
from genji_api.xp.grants import grant_xp
from genji_api.xp.models import XpGrantRequest, XpGrantResponse

# The effects handlers request here, and the jobs that may request each.
XP_EFFECTS = rule(
    xp=["api.completion.verification", "api.playtest.approve", "api.playtest.force_accept"]
)


def request_grant_key(effect: EffectContext | None) -> str:
    """A handler's effect names its grant; every ordinary request is a grant of its own."""
    if effect is not None:
        return f"effect:{effect.job_id}:{effect.effect_key}"
    return f"request:{uuid4()}"


async def grant(
    database: Database,
    user_id: int,
    request: XpGrantRequest,
    *,
    effect: EffectContext | None,
    trace: Trace,
) -> XpGrantResponse:
    grant_key = request_grant_key(effect)

    async def work(conn: asyncpg.Connection) -> XpGrantResponse:
        async def perform() -> XpGrantResponse:
            await lock_user(conn, user_id)
            try:
                granted = await grant_xp(
                    conn,
                    user_id=user_id,
                    base_amount=request.amount,
                    xp_type=request.type,
                    grant_key=grant_key,
                    reason=request.reason,
                    trace=trace,
                )
            except asyncpg.DataError:
                raise BadRequestError(f"The XP total of user {user_id} would overflow.") from None
            return XpGrantResponse(
                previous_amount=granted.event.previous_amount,
                new_amount=granted.event.new_amount,
                job_status=granted.job,
            )

        return await once(conn, effect, request, XpGrantResponse, perform, rule=XP_EFFECTS)

    return await database.transaction(work)
