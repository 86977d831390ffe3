"""Fixtures: a running stand-in seeded for the bot, its control client, and a real discord.py
client logged in and connected to it (REST base and gateway pointed at the stand-in)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.discord_standin.pointing import discord_py_pointed_at
from genji_devstack.discord_standin.seed import DEFAULT_TOKEN, world_for_bot
from genji_devstack.discord_standin.server import DiscordStandIn

from .standin_bot import READY_WITHIN, SETTINGS, StandInBot


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
