"""The bot's queue worker: the registered consumers, run by the shared supervisor."""

from __future__ import annotations

from genji_worker.process import queue_dsn, serve

from genji_bot.consumers import BotServices, Consumer, bot_handlers


async def run_bot_worker(
    services: BotServices, consumers: dict[str, Consumer] | None = None
) -> None:
    """Consume every bot entrypoint until SIGTERM; the features register before claiming starts
    (`consumers` replaces the feature modules' set, one per bot entrypoint)."""
    handlers = bot_handlers(services, consumers)
    try:
        await serve("bot", handlers, queue_dsn("bot"))
    finally:
        await services.api.aclose()
