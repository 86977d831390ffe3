"""The bot's queue worker: the registered consumers, run by the shared supervisor."""

from __future__ import annotations

from genji_worker.process import queue_dsn, serve

from genji_bot.consumers import BotServices, bot_handlers


async def run_bot_worker(services: BotServices) -> None:
    """Consume every bot entrypoint until SIGTERM; the features register before claiming starts."""
    handlers = bot_handlers(services)
    try:
        await serve("bot", handlers, queue_dsn("bot"))
    finally:
        await services.api.aclose()
