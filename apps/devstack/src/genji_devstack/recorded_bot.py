"""`python -m genji_devstack.recorded_bot`: the bot's queue worker with the recorder for Discord.

The real consumers, API client and supervisor, and the alert supervisor beside them; Discord
effects go to the recorder directory (GENJI_RECORDER_DIR). Used by tests and by `just up` when
no bot token is configured.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from genji_bot.alerts.supervisor import AlertSupervisor, alerts_running
from genji_bot.api import ApiClient
from genji_bot.consumers import BotServices, Consumer
from genji_bot.settings import bot_settings_from_env
from genji_bot.worker import run_bot_worker
from genji_worker.log_setup import LogFormatError, setup_logging
from genji_worker.process import EXIT_LOGIN

from genji_devstack.recorder_port import RecorderPort


def main(consumers: dict[str, Consumer] | None = None) -> int:
    """Run until SIGTERM; `consumers` replaces the feature modules' set (tests)."""
    try:
        setup_logging()
    except LogFormatError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_LOGIN
    settings = bot_settings_from_env()
    port = RecorderPort(
        os.environ.get("GENJI_RECORDER_DIR", "/tmp/genji-effects"), settings.nonce_window
    )

    async def run() -> None:
        api = ApiClient(settings.api_url, settings.api_key, timeout=settings.api_timeout_seconds)
        services = BotServices(api=api, port=port, settings=settings, checkpoints=port)
        async with alerts_running(AlertSupervisor(api, port, settings, port)):
            await run_bot_worker(services, consumers)

    try:
        asyncio.run(run())
    except Exception:
        logging.getLogger("genji.queue").exception("bot queue worker died")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
