"""Q26 with the real client: producers called through the API's routes reach the real bot,
which posts in Discord what the legacy bot posted, each once, where it posted it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from genji_api.database import Database, create_pool
from genji_api.settings import ApiSettings
from genji_devstack.discord_standin.control import StandInControl

from tests.bot.bot_stack import BOT_USER_ID, BotStack
from tests.bot.q26_flow import producer_case
from tests.support import testdb
from tests.support.producer_cases import ProducerEnv

from .discord_bot import running_bot, until_job

pytestmark = pytest.mark.queue

# The producer cases (tests/api/producer_cases) and the event each enqueues for the bot.
PRODUCERS = {
    "newsfeed-create": "api.newsfeed.create",
    "notification-create": "api.notification.delivery",
    "xp-grant": "api.xp.grant",
    "completion-submit-manual-review": "api.completion.submission",
}


@pytest.fixture
async def env(stack: BotStack, db: testdb.Database) -> AsyncIterator[ProducerEnv]:
    pool = await create_pool(db.dsn, max_size=1)
    try:
        async with httpx.AsyncClient(
            base_url=stack.url, headers={"X-API-KEY": stack.http.headers["X-API-KEY"]}, timeout=30
        ) as api:
            yield ProducerEnv(
                api=api,
                owner=stack.owner,
                database=Database(pool),
                settings=ApiSettings(database_url=db.dsn, bot_user_id=BOT_USER_ID),
            )
    finally:
        await pool.close()


async def test_q26_producers_reach_the_real_bot_and_post_what_the_legacy_bot_posted(
    stack: BotStack, discord: StandInControl, env: ProducerEnv, tmp_path: Path
) -> None:
    produced: dict[str, Any] = {}
    for name in PRODUCERS:
        case = producer_case(name)
        produced[name] = await case.setup(env)
        response = await case.act(env, produced[name])
        assert response is not None and response.status_code == case.ok, response
    async with running_bot(stack, discord, tmp_path / "bot.log"):
        for event in PRODUCERS.values():
            # The producer's job is the event's first; consumers may enqueue more.
            first = (await stack.jobs(event))[0]
            done = await until_job(stack, str(first["id"]), "succeeded", "failed")
            assert done["status"] == "succeeded", done
        await stack.until_quiet()
    channels = stack.settings.channels
    state = await discord.state()
    player = produced["xp-grant"]
    run = produced["completion-submit-manual-review"]
    # Every guild channel the bot posts in, and the DMs: the legacy bot's messages, once each.
    held = {int(c["id"]): c["messages"] for c in state["channels"]}
    posted = {channel: [shown(m) for m in found] for channel, found in held.items() if found}
    assert posted == {
        channels.newsfeed: [("", [("Hi", "News")], [])],
        channels.xp: [(f"<@{player}> has gained **10 XP** (Other)!", [], [])],
        channels.verification_queue: [
            ("", [("New Submission", None)], ["completion:verify:v1:1", "completion:reject:v1:1"])
        ],
    }
    [card] = held[channels.verification_queue]
    fields = {f["name"]: f["value"] for f in card["embeds"][0]["fields"]}
    assert (fields["Code"], fields["Video"]) == (run["code"], run["video"])
    assert [(dm["user_id"], [shown(m) for m in dm["messages"]]) for dm in state["dms"]] == [
        (str(produced["notification-create"]), [("Your run was verified.", [], [])])
    ]


def shown(message: dict[str, Any]) -> tuple[str, list[tuple[str, str | None]], list[str]]:
    """A message as a reader sees it: its text, its embeds' titles and descriptions, and its
    buttons."""
    buttons = [button["custom_id"] for row in message["components"] for button in row["components"]]
    embeds = [(embed["title"], embed.get("description")) for embed in message["embeds"]]
    return str(message["content"]), embeds, buttons
