"""Fixtures of the bot suite: the API served on the test database, the recorder, the bot's key,
and the loopback stand-in of Discord that the real client (`BotProcess.start(discord_url=...)`)
talks to."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from genji_api.settings import ApiSettings
from genji_bot.settings import BotSettings
from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.discord_standin.seed import world_for_bot
from genji_devstack.discord_standin.server import DiscordStandIn
from genji_devstack.recorder_port import RecorderPort

from tests.support.secrets_seen import issue_token
from tests.support.served_api import served_api
from tests.support.testdb import Connect, Database

from .bot_stack import BOT_USER_ID, BotStack, issue_bot_key


@pytest.fixture
def served(db: Database) -> Iterator[str]:
    settings = ApiSettings(
        database_url=db.dsn, pool_max_size=6, bot_user_id=BOT_USER_ID, run_worker=True
    )
    with served_api(settings) as url:
        yield url


@pytest.fixture
async def stack(
    db: Database, connect: Connect, served: str, tmp_path: Path
) -> AsyncIterator[BotStack]:
    owner = await connect("owner")
    await owner.execute(
        "INSERT INTO core.users (id, nickname) VALUES ($1, 'Genji Shimada') "
        "ON CONFLICT (id) DO NOTHING",
        BOT_USER_ID,
    )
    superuser = await issue_token(owner, "superuser", superuser=True, scopes=frozenset())
    bot_key = await issue_bot_key(owner)
    async with httpx.AsyncClient(
        base_url=served + "/api/v3", headers={"X-API-KEY": superuser}, timeout=30
    ) as http:
        yield BotStack(
            url=served,
            http=http,
            owner=owner,
            recorder=RecorderPort(tmp_path / "effects"),
            bot_key=bot_key,
            worker_dsn=db.worker_dsn,
            settings=BotSettings(api_url=served, api_key=bot_key, bot_user_id=BOT_USER_ID),
        )


@pytest.fixture
async def standin(stack: BotStack) -> AsyncIterator[DiscordStandIn]:
    """Discord as the bot's settings expect it: its guild, channels, forum and roles."""
    async with DiscordStandIn(world_for_bot(stack.settings)) as running:
        yield running


@pytest.fixture
async def discord(standin: DiscordStandIn) -> AsyncIterator[StandInControl]:
    """The stand-in's control and inspection API."""
    async with StandInControl(standin.url) as control:
        yield control
