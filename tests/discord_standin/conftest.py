"""Fixtures: a running stand-in seeded for the bot, its control client, and a real discord.py
client logged in and connected to it (REST base and gateway pointed at the stand-in)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import discord
import pytest
from genji_bot.settings import BotSettings
from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.discord_standin.pointing import discord_py_pointed_at
from genji_devstack.discord_standin.seed import DEFAULT_TOKEN, world_for_bot
from genji_devstack.discord_standin.server import DiscordStandIn

SETTINGS = BotSettings(api_url="http://127.0.0.1:9", api_key="unused")
READY_WITHIN = 5.0


@dataclass
class Events:
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    resumed: asyncio.Event = field(default_factory=asyncio.Event)
    interactions: asyncio.Queue[discord.Interaction[discord.Client]] = field(
        default_factory=asyncio.Queue
    )


class StandInBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            # One guild arrives right after READY: do not wait the default 2 s for more.
            guild_ready_timeout=0.05,
            allowed_mentions=discord.AllowedMentions.none(),
            max_ratelimit_timeout=30.0,
        )
        self.events = Events()
        self.task: asyncio.Task[None] | None = None

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before every IDENTIFY but the first (Discord's identify limit);
        the stand-in has none."""

    async def on_ready(self) -> None:
        self.events.ready.set()

    async def on_resumed(self) -> None:
        self.events.resumed.set()

    async def on_interaction(self, interaction: discord.Interaction[discord.Client]) -> None:
        self.events.interactions.put_nowait(interaction)


@pytest.fixture
async def standin() -> AsyncIterator[DiscordStandIn]:
    world = world_for_bot(SETTINGS)
    async with DiscordStandIn(world, heartbeat_interval_ms=1_000) as running:
        yield running


@pytest.fixture
async def control(standin: DiscordStandIn) -> AsyncIterator[StandInControl]:
    async with StandInControl(standin.url) as client:
        yield client


@pytest.fixture
async def bot(standin: DiscordStandIn) -> AsyncIterator[StandInBot]:
    with discord_py_pointed_at(standin.url):
        client = StandInBot()
        client.task = asyncio.create_task(client.start(DEFAULT_TOKEN))
        waiting = asyncio.create_task(client.events.ready.wait())
        done, _ = await asyncio.wait(
            {client.task, waiting}, timeout=READY_WITHIN, return_when=asyncio.FIRST_COMPLETED
        )
        if waiting not in done:
            waiting.cancel()
            if client.task in done:
                client.task.result()
            raise TimeoutError("the client never became ready")
        try:
            yield client
        finally:
            await client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.task, READY_WITHIN)
