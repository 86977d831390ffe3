"""Q08: two real bot processes overlap on one api.xp.grant job. The first is frozen in the
middle of the key grants, the second reclaims the job, and the first resumes while the second
still holds the claim: the keys are granted once, and the stale owner's next key is refused
(409, OwnershipLost) without writing anything."""

from __future__ import annotations

import os
import signal
from datetime import timedelta
from pathlib import Path

import pytest

from tests.bot.bot_stack import BotProcess, BotStack, eventually

from .xp_seed import (
    PRESTIGE_XP,
    grant_from,
    keys,
    notifications,
    receipts,
    sends_of,
    xp_total,
)

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

EVENT = "api.xp.grant"
HANG_AT = "keys:prestige:4"
NEXT = "keys:prestige:5"
# A first owner that heartbeats rarely (every half of this), so that once it resumes, only the
# API's claim check can stop it before its next effect.
SLOW_STALE_HEARTBEAT = timedelta(minutes=5)
FAST_STALE_HEARTBEAT = timedelta(seconds=1.5)


async def set_stale_heartbeat(stack: BotStack, threshold: timedelta) -> None:
    await stack.owner.execute("UPDATE queue_settings SET stale_heartbeat = $1", threshold)


async def claim_of(stack: BotStack, job_id: str) -> tuple[str, str]:
    row = await stack.owner.fetchrow(
        "SELECT q.status, q.queue_manager_id::text AS manager FROM jobs j "
        "JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.id = $1",
        job_id,
    )
    assert row is not None
    return row["status"], row["manager"]


async def manager_of(stack: BotStack, process: BotProcess) -> str:
    async def registered() -> str | None:
        manager: str | None = await stack.owner.fetchval(
            "SELECT manager_id::text FROM queue_workers WHERE pid = $1", process.pid
        )
        return manager

    return await eventually(registered, 30, f"bot process {process.pid} to register")


async def test_q08_a_resumed_stale_owner_grants_no_key_the_replacement_grants_once(
    stack: BotStack, tmp_path: Path
) -> None:
    recorder = stack.recorder.recorder
    stack.recorder.command(f"{EVENT}:{HANG_AT}", "hang")
    await set_stale_heartbeat(stack, SLOW_STALE_HEARTBEAT)
    granted = await grant_from(stack, PRESTIGE_XP - 50, 100)
    grant = f"xp:{granted.grant_id}:prestige"
    first = BotProcess.start(stack, tmp_path / "first.log")
    second: BotProcess | None = None
    try:

        async def first_hangs() -> bool:
            return recorder.count(HANG_AT, "start", job_id=granted.job_id, pid=first.pid) == 1

        await eventually(first_hangs, 30, "the first process to stop before the fourth key")
        assert await keys(stack, granted.user_id) == [(grant, n) for n in (1, 2, 3)]
        os.kill(first.pid, signal.SIGSTOP)  # frozen: no heartbeat reaches the database

        await set_stale_heartbeat(stack, FAST_STALE_HEARTBEAT)
        second = BotProcess.start(stack, tmp_path / "second.log")
        replacement = await manager_of(stack, second)

        async def second_hangs() -> bool:
            return recorder.count(HANG_AT, "start", job_id=granted.job_id, pid=second.pid) == 1

        await eventually(second_hangs, 30, "the second process to reclaim and reach the key")
        assert await claim_of(stack, granted.job_id) == ("picked", replacement)
        # The replacement replayed keys 1-3 from their receipts.
        assert await keys(stack, granted.user_id) == [(grant, n) for n in (1, 2, 3)]

        # The stale owner resumes while the replacement holds the claim.
        stack.recorder.command(f"{EVENT}:{HANG_AT}", "complete", pid=first.pid)
        os.kill(first.pid, signal.SIGCONT)

        async def stale_owner_stopped_or_went_on() -> bool:
            went_on = recorder.count(NEXT, "start", job_id=granted.job_id, pid=first.pid)
            return went_on > 0 or "claim lost during the handler" in first.log()

        await eventually(stale_owner_stopped_or_went_on, 20, "the stale owner to resume")
        assert "claim lost during the handler" in first.log()
        assert await keys(stack, granted.user_id) == [(grant, n) for n in (1, 2, 3)]
        assert HANG_AT not in await receipts(stack, granted.job_id)
        assert await claim_of(stack, granted.job_id) == ("picked", replacement)

        stack.recorder.command(f"{EVENT}:{HANG_AT}", "complete")
        await stack.until_status(granted.job_id, "succeeded")
        await stack.until_quiet()
    finally:
        first.kill()
        if second is not None:
            second.kill()

    assert await keys(stack, granted.user_id) == [(grant, n) for n in range(1, 16)]
    assert await notifications(stack, granted.user_id) == ["lootbox_earned", "prestige", "xp_gain"]
    assert sends_of(stack, granted.job_id) == {"message:xp": 1, "message:prestige": 1}
    assert await xp_total(stack, granted.user_id) == PRESTIGE_XP + 50
    assert (
        await stack.owner.fetchval(
            "SELECT count(*) FROM lootbox.xp_grants WHERE user_id = $1", granted.user_id
        )
        == 1
    )
    # Only the replacement performed the keys after the third.
    assert recorder.count(HANG_AT, "done", job_id=granted.job_id, pid=first.pid) == 0
