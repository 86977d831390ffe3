"""Key grants (at most once per grant item, and once per handler effect) and tier reads."""

from __future__ import annotations

from uuid import uuid4

import asyncpg

from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.errors import BadRequestError, NotFoundError
from genji_api.lootbox import repository
from genji_api.lootbox.models import KeyGrantRequest, KeyGrantResponse, XpTier, XpTierChange
from genji_api.lootbox.tiers import position
from genji_api.users.repository import lock_user

# The effects handlers request here, and the jobs that may request each.
KEY_EFFECTS = rule(keys=["api.xp.grant"])


def _grant_key(request: KeyGrantRequest, effect: EffectContext | None) -> str:
    if request.grant_key is not None:
        return request.grant_key
    if effect is not None:
        return f"effect:{effect.job_id}:{effect.effect_key}"
    return f"request:{uuid4()}"


async def grant_key(
    database: Database,
    user_id: int,
    request: KeyGrantRequest,
    *,
    effect: EffectContext | None,
) -> KeyGrantResponse:
    """One key: item `request.item` of its grant. The receipt returns a replayed effect's
    result; the (grant_key, item) constraint keeps any other repeat from adding a key."""
    key = _grant_key(request, effect)

    async def work(conn: asyncpg.Connection) -> KeyGrantResponse:
        async def perform() -> KeyGrantResponse:
            await lock_user(conn, user_id)
            key_type = request.key_type or await repository.active_key_type(conn)
            if not await repository.key_type_exists(conn, key_type):
                raise BadRequestError(f"Unknown key type: {key_type}")
            row, inserted = await repository.insert_key(conn, user_id, key_type, key, request.item)
            if row.user_id != user_id:
                raise BadRequestError(f"Grant {key!r} belongs to another user.")
            return KeyGrantResponse(
                key_id=row.id,
                grant_key=row.grant_key,
                item=row.item,
                key_type=row.key_type,
                granted=inserted,
            )

        return await once(conn, effect, request, KeyGrantResponse, perform, rule=KEY_EFFECTS)

    return await database.transaction(work)


async def _names(conn: asyncpg.Connection) -> tuple[dict[int, str], dict[int, str]]:
    return await repository.tier_names(conn)


def _tier(xp: int, names: tuple[dict[int, str], dict[int, str]]) -> XpTier:
    where = position(xp)
    return XpTier(
        xp=xp,
        rank=where.rank,
        prestige=where.prestige,
        main_tier=where.main_tier,
        main_tier_name=names[0][where.main_tier],
        sub_tier=where.sub_tier,
        sub_tier_name=names[1][where.sub_tier],
    )


async def tier_change(database: Database, old_xp: int, new_xp: int) -> XpTierChange:
    names = await database.read(_names)
    old, new = _tier(old_xp, names), _tier(new_xp, names)
    return XpTierChange(
        old=old,
        new=new,
        rank_change=(old.main_tier_name, old.sub_tier_name)
        != (new.main_tier_name, new.sub_tier_name),
        prestige_change=old.prestige != new.prestige,
    )


async def user_tier(database: Database, user_id: int) -> XpTier:
    """The user's current total and its tier: what role reconciliation goes by."""

    async def read(conn: asyncpg.Connection) -> tuple[int | None, tuple[dict[int, str], ...]]:
        return await repository.xp_total(conn, user_id), await _names(conn)

    total, names = await database.read(read)
    if total is None:
        raise NotFoundError(f"No user found with id: {user_id}")
    return _tier(total, (names[0], names[1]))
