"""Start-up restoration of persistent views from the API's open records.

It runs once the Discord connection is ready and the API answers, beside the queue worker: it
never waits for the queue's backlog, and the handlers that run meanwhile register and retire
views through the same registry, which settles any overlap.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

import msgspec
from genji_sdk.failures import DependencyUnavailable, RateLimited
from genji_sdk.views import OpenViews

from genji_bot.api import ApiClient
from genji_bot.views.registry import Registration, ViewRegistry

log = logging.getLogger("genji.bot.views")

OPEN_VIEWS = "/internal/views"


class RestoreReport(msgspec.Struct, frozen=True):
    listed: int
    registered: int
    duplicate: int
    retired: int


async def restore_views(api: ApiClient, registry: ViewRegistry) -> RestoreReport:
    """Register one view per open message the API lists (once per message id)."""
    listed = msgspec.convert(await api.get(OPEN_VIEWS), OpenViews).views
    outcomes: Counter[Registration] = Counter(registry.register(view) for view in listed)
    report = RestoreReport(
        listed=len(listed),
        registered=outcomes["registered"],
        duplicate=outcomes["duplicate"],
        retired=outcomes["retired"],
    )
    log.info(
        "restored %d persistent views (%d listed, %d already registered, %d since resolved)",
        report.registered,
        report.listed,
        report.duplicate,
        report.retired,
    )
    return report


async def restore_when_ready(
    api: ApiClient,
    registry: ViewRegistry,
    discord_ready: Callable[[], Awaitable[None]],
    *,
    initial_delay: float = 1.0,
    max_delay: float = 30.0,
) -> RestoreReport:
    """Wait for Discord, then restore, retrying while the API is unavailable or rate limited."""
    await discord_ready()
    delay = initial_delay
    while True:
        try:
            return await restore_views(api, registry)
        except RateLimited as error:
            await asyncio.sleep(error.retry_after)
        except DependencyUnavailable as error:
            log.warning("persistent views not restored yet, the API is unavailable: %s", error)
            await asyncio.sleep(delay)
            delay = min(delay * 2, max_delay)
