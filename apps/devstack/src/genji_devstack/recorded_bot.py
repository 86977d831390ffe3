"""`python -m genji_devstack.recorded_bot`: the bot's queue worker with the recorder for Discord.

The real consumers, API client and supervisor; Discord effects go to the recorder directory
(GENJI_RECORDER_DIR). Used by tests and by `just up` when no bot token is configured.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from typing import Any

from genji_bot.api import ApiClient
from genji_bot.consumers import CONSUMERS, BotServices, JobRun, bot_handlers
from genji_bot.features import load_features
from genji_bot.settings import bot_settings_from_env
from genji_bot.worker import run_bot_worker
from genji_sdk import REGISTRY
from genji_worker.process import queue_dsn, serve

from genji_devstack.recorder_port import RecorderPort


async def _serve_partial(services: BotServices) -> None:
    """GENJI_RECORDER_PARTIAL=1: entrypoints without a consumer fail their jobs instead of
    refusing to start, so one feature's consumers can run alone."""
    load_features()

    async def missing(payload: Any, job: JobRun) -> None:
        raise RuntimeError(f"no consumer is registered for {job.context.event_name}")

    consumers = {spec.name: CONSUMERS.get(spec.name, missing) for spec in REGISTRY.owned_by("bot")}
    try:
        await serve("bot", bot_handlers(services, consumers=consumers), queue_dsn("bot"))
    finally:
        await services.api.aclose()


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("pgqueuer").setLevel(logging.WARNING)
    settings = bot_settings_from_env()
    port = RecorderPort(os.environ.get("GENJI_RECORDER_DIR", "/tmp/genji-effects"))

    async def run() -> None:
        api = ApiClient(settings.api_url, settings.api_key, timeout=settings.api_timeout_seconds)
        services = BotServices(api=api, port=port, settings=settings, checkpoints=port)
        if os.environ.get("GENJI_RECORDER_PARTIAL") == "1":
            await _serve_partial(services)
        else:
            await run_bot_worker(services)

    try:
        asyncio.run(run())
    except Exception:
        logging.getLogger("genji.queue").exception("bot queue worker died")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
