"""Sends of the real client through the stand-in of Discord: every answer Discord can give to a
send ends as docs/effects.md says. The newsfeed's record post is the send under test."""

from __future__ import annotations

from pathlib import Path

import pytest
import seed
from bot_stack import BotStack, eventually
from discord_bot import job_status, operator_retry, post_newsfeed, running_bot
from genji_devstack.discord_standin.control import StandInControl

pytestmark = pytest.mark.queue

SEND = "POST /channels/{channel_id}/messages"


def record() -> dict[str, object]:
    return {
        "type": "record",
        "code": seed.new_code(),
        "map_name": "Hanamura",
        "time": 12.34,
        "rank_num": 1,
        "name": "Genji",
    }


async def bound_message(stack: BotStack, job_id: str) -> tuple[str, int | None]:
    row = await stack.owner.fetchrow(
        "SELECT state, message_id FROM effect_bindings WHERE job_id = $1", job_id
    )
    assert row is not None
    return row["state"], row["message_id"]


async def until_status(stack: BotStack, job_id: str, *states: str) -> dict[str, object]:
    async def probe() -> dict[str, object] | None:
        status = await job_status(stack, job_id)
        return status if status["status"] in states else None

    return await eventually(probe, 40, f"job {job_id} to be {'/'.join(states)}")


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param({"action": "lose-reply"}, id="Q11-lost-reply"),
        pytest.param({"action": "status", "status": 503}, id="Q11-503"),
    ],
)
async def test_q11_a_send_whose_reply_is_lost_is_repeated_with_its_nonce_and_posted_once(
    stack: BotStack, discord: StandInControl, tmp_path: Path, answer: dict[str, object]
) -> None:
    channel = stack.settings.channels.newsfeed
    await discord.add_fault(
        SEND, str(answer["action"]), channel_id=channel, status=answer.get("status")
    )  # type: ignore[arg-type]
    async with running_bot(stack, discord, tmp_path / "bot.log"):
        _, job_id = await post_newsfeed(stack, record())
        status = await until_status(stack, job_id, "succeeded", "failed")

    assert status["status"] == "succeeded", status
    posted = await discord.messages(channel)
    assert len(posted) == 1, posted
    assert await bound_message(stack, job_id) == ("completed", int(posted[0]["id"]))


async def test_q19_a_channel_refused_for_permissions_holds_the_job_with_discords_reason_and_a_retry_after_the_fix_sends_it(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    channel = stack.settings.channels.newsfeed
    await discord.deny_channel(channel, code=50001)
    async with running_bot(stack, discord, tmp_path / "first.log"):
        _, job_id = await post_newsfeed(stack, record())
        held = await until_status(stack, job_id, "failed", "succeeded")
    assert (held["status"], held["error_code"]) == ("failed", "RefusedEffect"), held
    assert "403 (code 50001) Missing Access" in str(held["error_msg"]), held
    assert await discord.messages(channel) == []
    # Nothing was sent, so nothing is uncertain: the intent was released.
    assert (
        await stack.owner.fetchval("SELECT count(*) FROM effect_bindings WHERE job_id = $1", job_id)
        == 0
    )
    failures = await stack.owner.fetchval("SELECT handler_failures FROM jobs WHERE id = $1", job_id)
    assert failures == 0, "a refusal is held at once, without spending the failure budget"

    # The bot restarts, the operator fixes the permission and retries: the message is sent.
    await discord.allow_channel(channel)
    async with running_bot(stack, discord, tmp_path / "second.log"):
        await operator_retry(stack, job_id, 0)
        done = await until_status(stack, job_id, "succeeded", "failed")
    assert done["status"] == "succeeded", done
    posted = await discord.messages(channel)
    assert len(posted) == 1, posted
    assert await bound_message(stack, job_id) == ("completed", int(posted[0]["id"]))
