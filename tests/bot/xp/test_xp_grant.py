"""api.xp.grant through the real route: XP post, rank and prestige keys, notices and roles."""

from __future__ import annotations

import pytest

from tests.bot.bot_stack import BotStack

from .xp_seed import PRESTIGE_XP, grant_from, keys, notifications, receipts, sends_of

pytestmark = pytest.mark.queue


async def test_a_rank_change_grants_one_key_posts_and_sets_the_rank_role(
    stack: BotStack,
) -> None:
    granted = await grant_from(stack, 0, 150)  # rank 0 -> 1: Newcomer I -> Newcomer II
    async with stack.worker():
        await stack.until_status(granted.job_id, "succeeded")
        await stack.until_quiet()

    assert await keys(stack, granted.user_id) == [(f"xp:{granted.grant_id}:rank", 1)]
    assert await notifications(stack, granted.user_id) == ["lootbox_earned", "rank_up", "xp_gain"]
    assert sends_of(stack, granted.job_id) == {"message:xp": 1, "message:rank_up": 1}
    roles = stack.settings.rank_roles
    assert stack.recorder.roles_of(granted.user_id) == {roles.main_tiers[0]}
    assert "keys:rank:1" in await receipts(stack, granted.job_id)


async def test_a_prestige_change_grants_fifteen_keys_and_the_prestige_role(
    stack: BotStack,
) -> None:
    granted = await grant_from(stack, PRESTIGE_XP - 50, 100)
    async with stack.worker():
        await stack.until_status(granted.job_id, "succeeded")
        await stack.until_quiet()

    grant = f"xp:{granted.grant_id}:prestige"
    assert await keys(stack, granted.user_id) == [(grant, n) for n in range(1, 16)]
    assert await notifications(stack, granted.user_id) == ["lootbox_earned", "prestige", "xp_gain"]
    assert sends_of(stack, granted.job_id) == {"message:xp": 1, "message:prestige": 1}
    roles = stack.settings.rank_roles
    assert stack.recorder.roles_of(granted.user_id) == {roles.main_tiers[0], roles.prestige[0]}


async def test_a_grant_within_a_rank_only_posts_the_xp(stack: BotStack) -> None:
    granted = await grant_from(stack, 110, 20)
    async with stack.worker():
        await stack.until_status(granted.job_id, "succeeded")
        await stack.until_quiet()

    assert await keys(stack, granted.user_id) == []
    assert await notifications(stack, granted.user_id) == ["xp_gain"]
    assert sends_of(stack, granted.job_id) == {"message:xp": 1}
    assert stack.recorder.operations("roles") == []


async def test_a_user_outside_the_guild_gets_nothing(stack: BotStack) -> None:
    granted = await grant_from(stack, 0, 150)
    stack.recorder.set_absent_members([granted.user_id])
    async with stack.worker():
        await stack.until_status(granted.job_id, "succeeded")

    assert await keys(stack, granted.user_id) == []
    assert await notifications(stack, granted.user_id) == []
    assert stack.recorder.sends(job_id=granted.job_id) == []
