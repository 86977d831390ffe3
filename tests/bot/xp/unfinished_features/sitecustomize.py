"""Loaded by a recorded bot started with this directory on PYTHONPATH (see bot_environment).

The real bot refuses to start unless every bot entrypoint has a consumer. While some feature
modules register none yet, this fills in the missing ones with consumers that fail loudly, so
a test of the registered features can run the real process; once every feature registers its
consumers it adds nothing.
"""

from __future__ import annotations

from typing import Any

from genji_bot.consumers import CONSUMERS, JobRun
from genji_bot.features import load_features
from genji_sdk import REGISTRY


async def _unregistered(payload: Any, job: JobRun) -> None:
    raise RuntimeError(f"no consumer is registered for {job.context.event_name}")


load_features()
for _spec in REGISTRY.owned_by("bot"):
    CONSUMERS.setdefault(_spec.name, _unregistered)
