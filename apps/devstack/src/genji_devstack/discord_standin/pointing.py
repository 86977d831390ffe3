"""Point discord.py at a stand-in: its REST base and its default gateway, restored after.

A plain `discord.Client` never asks GET /gateway/bot: it connects to the class attribute
`DiscordWebSocket.DEFAULT_GATEWAY` (and returns to it after a non-resumable INVALID_SESSION),
so both that and `Route.BASE` must change.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


@contextlib.contextmanager
def discord_py_pointed_at(url: str) -> Iterator[None]:
    """Within the block, discord.py talks to the stand-in at `url` (http://host:port)."""
    base = url.rstrip("/")
    saved_base = Route.BASE
    saved_gateway = DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = f"{base}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{base.replace('http', 'ws', 1)}/gateway")
    try:
        yield
    finally:
        Route.BASE = saved_base
        DiscordWebSocket.DEFAULT_GATEWAY = saved_gateway
