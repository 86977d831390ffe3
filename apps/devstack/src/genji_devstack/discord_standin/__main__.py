"""The stand-in's command line.

    python -m genji_devstack.discord_standin serve --port N [--nonce-window S] [--token T]
    python -m genji_devstack.discord_standin report --url URL

`serve` seeds the world from the bot's settings (environment, defaults for what is unset),
prints one line `discord stand-in ready at <url>` once it listens, and serves until SIGTERM or
SIGINT, logging in the format GENJI_LOG_FORMAT names (genji_worker.log_setup; a bad value exits
2). `report` prints what a running stand-in holds; it exits 2 when it cannot reach it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys

from genji_worker.log_setup import LogFormatError, setup_logging

from genji_devstack.discord_standin.report import Unreachable, print_report

EXIT_UNREACHABLE = 2
EXIT_BAD_SETTING = 2
DEFAULT_HEARTBEAT_MS = 41_250


async def serve(arguments: argparse.Namespace) -> None:
    # Imported here: `report` should not pay for importing discord.py and the bot.
    from genji_bot.settings import bot_settings_from_env

    from genji_devstack.discord_standin.seed import DEFAULT_TOKEN, world_for_bot
    from genji_devstack.discord_standin.server import DiscordStandIn

    # The stand-in needs the bot's ids only; the API key is irrelevant to it.
    settings = bot_settings_from_env({"GENJI_API_KEY": "unused", **os.environ})
    token = arguments.token or os.environ.get("DISCORD_TOKEN") or DEFAULT_TOKEN
    standin = DiscordStandIn(
        world_for_bot(settings, token=token),
        host=arguments.host,
        port=arguments.port,
        nonce_window=arguments.nonce_window,
        heartbeat_interval_ms=arguments.heartbeat_ms,
        interaction_timeout=arguments.interaction_timeout,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    async with standin:
        print(f"discord stand-in ready at {standin.url}", flush=True)
        await stop.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m genji_devstack.discord_standin")
    commands = parser.add_subparsers(dest="command", required=True)
    serving = commands.add_parser("serve", help="serve the stand-in until SIGTERM/SIGINT")
    serving.add_argument("--host", default="127.0.0.1")
    serving.add_argument("--port", type=int, default=0)
    serving.add_argument("--nonce-window", type=float, default=180.0)
    serving.add_argument("--token", default=None)
    serving.add_argument("--heartbeat-ms", type=int, default=DEFAULT_HEARTBEAT_MS)
    serving.add_argument("--interaction-timeout", type=float, default=3.0)
    reporting = commands.add_parser("report", help="print what a running stand-in holds")
    reporting.add_argument("--url", required=True)
    arguments = parser.parse_args(argv)
    if arguments.command == "serve":
        try:
            setup_logging()
        except LogFormatError as error:
            print(f"error: {error}", file=sys.stderr)
            return EXIT_BAD_SETTING
        asyncio.run(serve(arguments))
        return 0
    try:
        print_report(arguments.url, sys.stdout)
    except Unreachable as error:
        print(str(error).replace("\n", " "), file=sys.stderr)
        return EXIT_UNREACHABLE
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
