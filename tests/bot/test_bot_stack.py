"""The bot's worker runs its consumers against the served API, with the recorder for Discord."""

from __future__ import annotations

import pytest
from genji_sdk import REGISTRY

from .bot_stack import BotStack

pytestmark = pytest.mark.queue


async def test_the_bot_worker_has_a_handler_for_every_bot_entrypoint(stack: BotStack) -> None:
    async with stack.worker() as supervisor:
        assert set(supervisor.handlers) == {spec.name for spec in REGISTRY.owned_by("bot")}
