"""Q10: an api.xp.grant job that fails after some of its effects succeeded is retried with the
same identity, and its keys, notices and posts each happen once."""

from __future__ import annotations

import pytest

from tests.bot.bot_stack import BotStack

from .xp_seed import PRESTIGE_XP, grant_from, keys, notifications, sends_of, xp_total

pytestmark = pytest.mark.queue

RANK = (0, 150, "rank", 1, ["lootbox_earned", "rank_up", "xp_gain"], "message:rank_up")
PRESTIGE = (
    PRESTIGE_XP - 50,
    100,
    "prestige",
    15,
    ["lootbox_earned", "prestige", "xp_gain"],
    "message:prestige",
)


@pytest.mark.parametrize(
    ("start", "amount", "kind", "count", "notices", "post", "failing"),
    [
        pytest.param(*RANK, "roles:rank", id="q10-rank-key-then-roles-fail"),
        pytest.param(*PRESTIGE, "keys:prestige:8", id="q10-prestige-fails-at-the-eighth-key"),
        pytest.param(*PRESTIGE, "roles:rank", id="q10-prestige-keys-then-roles-fail"),
    ],
)
async def test_q10_xp_grant_replay_grants_keys_and_sends_once(
    stack: BotStack,
    start: int,
    amount: int,
    kind: str,
    count: int,
    notices: list[str],
    post: str,
    failing: str,
) -> None:
    stack.recorder.command(f"api.xp.grant:{failing}", "fail:1")
    granted = await grant_from(stack, start, amount)
    async with stack.worker():
        await stack.until_status(granted.job_id, "succeeded")
        await stack.until_quiet()

    assert stack.recorder.recorder.count(failing, "failed", job_id=granted.job_id) == 1
    assert await keys(stack, granted.user_id) == [
        (f"xp:{granted.grant_id}:{kind}", n) for n in range(1, count + 1)
    ]
    assert await notifications(stack, granted.user_id) == notices
    assert sends_of(stack, granted.job_id) == {"message:xp": 1, post: 1}
    assert await xp_total(stack, granted.user_id) == start + amount
    # Both attempts ran the effects before the failure; the second reused their receipts.
    first_key = f"keys:{kind}:1"  # the rank key of 150 XP is rank 1, the first prestige key 1
    assert stack.recorder.recorder.count(first_key, "done", job_id=granted.job_id) == 2
