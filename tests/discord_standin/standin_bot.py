"""A real discord.py client for the stand-in's tests, and the settings its world is seeded from."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import discord
from genji_bot.discord.port import answer_trace
from genji_bot.settings import BotSettings

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
            http_trace=answer_trace(),
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
