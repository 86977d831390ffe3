"""Sends of the real client through the stand-in of Discord: every answer Discord can give to a
send ends as docs/effects.md says. The newsfeed's record post is the send under test."""

from __future__ import annotations

from pathlib import Path

import pytest
from genji_bot.discord.client import MAX_RATELIMIT_WAIT
from genji_devstack.discord_standin.control import StandInControl

from tests.bot.bot_stack import BotStack, eventually
from tests.support import seed
from tests.support import seed_completions as sc

from .discord_bot import job_status, operator_retry, post_newsfeed, running_bot

pytestmark = pytest.mark.queue

SEND = "POST /channels/{channel_id}/messages"
# Just over what the client waits out itself: discord.py raises RateLimited instead.
LONG_LIMIT = MAX_RATELIMIT_WAIT + 2


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


async def test_a_send_discord_posted_and_answered_502_then_rate_limited_for_long_is_posted_once(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    # discord.py repeats the 502'd request itself; the repeat meets a 429 longer than the
    # client waits, and the error it raises describes that repeat alone.
    assert LONG_LIMIT > MAX_RATELIMIT_WAIT
    channel = stack.settings.channels.newsfeed
    await discord.add_fault(SEND, "status-after", channel_id=channel, status=502)
    await discord.add_fault(SEND, "ratelimit", channel_id=channel, retry_after=LONG_LIMIT)
    async with running_bot(stack, discord, tmp_path / "bot.log"):
        _, job_id = await post_newsfeed(stack, record())
        status = await until_status(stack, job_id, "succeeded", "failed")

    assert [f["fired"] for f in await discord.faults()] == [1, 1]
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


async def test_a_card_whose_field_would_pass_discords_limit_is_fitted_and_posted(
    stack: BotStack, discord: StandInControl, tmp_path: Path
) -> None:
    # The API accepts a video URL of up to 2,048 characters; an embed field holds 1,024.
    video = "https://youtu.be/" + "v" * 1_083
    _, code = await seed.game_map(stack.owner)
    response = await stack.http.post(
        "/completions/",
        json={
            "code": code,
            "user_id": await seed.user(stack.owner),
            "time": 12.5,
            "screenshot": sc.SCREENSHOT,
            "video": video,
        },
    )
    assert response.status_code == 201, response.text
    job_id = response.json()["job_status"]["id"]
    async with running_bot(stack, discord, tmp_path / "bot.log"):
        status = await until_status(stack, job_id, "succeeded", "failed")

    assert status["status"] == "succeeded", status
    (card,) = await discord.messages(stack.settings.channels.verification_queue)
    values = [field["value"] for field in card["embeds"][0]["fields"]]
    cut = [value for value in values if value.startswith("https://youtu.be/vvv")]
    assert len(cut) == 1 and len(cut[0]) == 1_024 and cut[0].endswith("…"), values
