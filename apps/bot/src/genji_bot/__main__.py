"""`python -m genji_bot`: the Discord bot with its queue worker (DISCORD_TOKEN is required).

Exit statuses: 0 after a drained stop; 1 when the worker or the Discord connection died (restart
it); 2 when a restart will not help: no token, a token Discord refuses, a gateway closed for
good, a missing or malformed setting (GENJI_LOG_FORMAT and GENJI_QUEUE_* among them), a GENJI_* name
the project does not know (genji_worker.genji_names; the nearest known one is named), or a
queue login that fails.

Without a token there is no Discord to talk to: `python -m genji_devstack.recorded_bot` runs the
same queue worker and handlers with the recorder in place of Discord. SENTRY_DSN turns on Sentry
(genji_worker.sentry_setup).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from genji_worker.genji_names import unknown_genji_setting
from genji_worker.log_setup import LogFormatError, setup_logging
from genji_worker.process import QueueLoginError, queue_dsn, settings_problem
from genji_worker.sentry_setup import init_sentry

from genji_bot.discord.client import EXIT_LOGIN, run_bot
from genji_bot.settings import bot_settings_from_env

NO_TOKEN = (
    "DISCORD_TOKEN is not set, so the bot cannot connect to Discord. To run the bot's queue "
    "worker and handlers with the effect recorder instead, use "
    "`python -m genji_devstack.recorded_bot` (GENJI_RECORDER_DIR names its directory)."
)


def main() -> int:
    if not os.environ.get("DISCORD_TOKEN"):
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_LOGIN
    try:
        setup_logging()
    except LogFormatError as error:
        print(error, file=sys.stderr)
        return EXIT_LOGIN
    # Before the other settings: a mistyped name is often why one of them seems missing.
    unknown = unknown_genji_setting(os.environ)
    if unknown:
        print(f"error: {unknown}", file=sys.stderr)
        return EXIT_LOGIN
    try:
        settings = bot_settings_from_env()
    except ValueError as error:  # MissingSetting, or a value that does not parse
        print(error, file=sys.stderr)
        return EXIT_LOGIN
    problem = settings_problem()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_LOGIN
    init_sentry("bot")
    try:
        queue_dsn("bot")
    except QueueLoginError as error:
        logging.getLogger("genji.queue").error("bot queue worker cannot log in: %s", error)
        return EXIT_LOGIN
    assert settings.discord_token is not None
    return asyncio.run(run_bot(settings, settings.discord_token))


if __name__ == "__main__":
    sys.exit(main())
