"""The bot process: the discord.py client, the queue worker, and persistent views.

In the setup hook (after login, before the gateway is ready) the client loads the feature
modules, registers the dynamic items and connects the view registry to discord.py's view store,
and only then starts the queue worker as a supervised task, with the alert supervisor
(genji_bot.alerts.supervisor) beside it. Restoration of persistent views runs beside them once
the gateway is ready and the API answers; it never waits for the queue's backlog.

Stopping: SIGTERM/SIGINT reach the worker's supervisor (genji_worker.process.serve), which stops
claiming and drains; when the worker task ends the Discord connection is closed, so transports
close after the queue. A worker that dies stops the process with a non-zero status (its manager
restarts it), never leaving a connected bot that consumes nothing. Whatever closes the client
first drains the worker before Discord's HTTP session closes, so handlers finish their sends: a
gateway that Discord closes for good (4004 authentication failed, 4010-4014) exits EXIT_LOGIN,
as a refused token at login does; any other end of the connection exits EXIT_DIED.

DISCORD_URL points discord.py at another Discord (the local stand-in): its REST API under
`/api/v10` and its gateway at `/gateway`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal

import asyncpg
import discord
import yarl
from discord.gateway import DiscordWebSocket

# Declares the alert card's Retry job and Details dynamic items, registered in setup_hook.
from genji_bot.alerts import controls as _alert_controls  # noqa: F401
from genji_bot.alerts.supervisor import AlertSupervisor, start_alerts
from genji_bot.api import ApiClient
from genji_bot.consumers import BotServices
from genji_bot.discord.components import DYNAMIC_ITEMS
from genji_bot.discord.port import DiscordPort, answer_trace
from genji_bot.discord.presses import answer_modal_submit
from genji_bot.discord.views import DiscordViewSink
from genji_bot.features import load_features
from genji_bot.settings import BotSettings
from genji_bot.views.registry import ViewRegistry
from genji_bot.views.restore import restore_when_ready
from genji_bot.worker import run_bot_worker

log = logging.getLogger("genji.bot")

# Exit statuses: a worker or Discord connection that died (restart it), and credentials that a
# restart will not fix (the same value as genji_worker.process.EXIT_LOGIN).
EXIT_DIED = 1
EXIT_LOGIN = 2
# Rate limits longer than this surface as RateLimited (the job is deferred) instead of
# holding a handler inside discord.py.
MAX_RATELIMIT_WAIT = 30.0


def _restore_ended(task: asyncio.Task[object]) -> None:
    # Buttons keep working through the dynamic items; a failed restoration is an operator's
    # problem to see, not a reason to stop consuming jobs.
    if not task.cancelled() and task.exception() is not None:
        log.error("persistent views were not restored: %r", task.exception())


class GenjiBot(discord.Client):
    def __init__(self, settings: BotSettings, api: ApiClient) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            # Every send and edit passes its own; this only covers anything that does not.
            allowed_mentions=discord.AllowedMentions.none(),
            max_ratelimit_timeout=MAX_RATELIMIT_WAIT,
            http_trace=answer_trace(),
        )
        self.settings = settings
        self.api = api
        self.views = ViewRegistry()
        self.worker_task: asyncio.Task[None] | None = None
        self.restore_task: asyncio.Task[object] | None = None
        self.alerts_task: asyncio.Task[None] | None = None
        self.draining = False
        """True once the client drained the worker because Discord ended first."""

    async def close(self) -> None:
        worker = self.worker_task
        if worker is not None and not worker.done() and not self.draining:
            # Discord is going away first: drain the queue worker the way SIGTERM does while
            # the HTTP session still carries the handlers' last requests.
            self.draining = True
            log.critical("the Discord connection is closing; draining the queue worker")
            os.kill(os.getpid(), signal.SIGTERM)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.shield(worker)
        await super().close()

    async def on_interaction(self, interaction: discord.Interaction[discord.Client]) -> None:
        # Modals are not kept by discord.py (genji_bot.discord.presses.ask_modal): every
        # submit is answered from its custom id. A modal sent without stopping it would be
        # answered twice, here and by discord.py.
        if interaction.type is discord.InteractionType.modal_submit:
            await answer_modal_submit(interaction)

    async def setup_hook(self) -> None:
        load_features()
        if DYNAMIC_ITEMS:
            self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.views.connect(DiscordViewSink(self))
        services = BotServices(
            api=self.api,
            port=DiscordPort(self, self.settings.guild_id, self.settings.nonce_window),
            settings=self.settings,
            views=self.views,
        )
        self.worker_task = asyncio.create_task(run_bot_worker(services), name="bot-queue-worker")
        self.worker_task.add_done_callback(self._worker_ended)
        # Its unexpected end stops the process through SIGTERM, which drains the worker.
        self.alerts_task = start_alerts(AlertSupervisor(self.api, services.port, self.settings))
        self.restore_task = asyncio.create_task(
            restore_when_ready(self.api, self.views, self.wait_until_ready),
            name="restore-persistent-views",
        )
        self.restore_task.add_done_callback(_restore_ended)

    def _worker_ended(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.critical("bot queue worker died: %r; stopping the process", task.exception())
        if self.restore_task is not None:
            self.restore_task.cancel()
        if self.alerts_task is not None:
            self.alerts_task.cancel()
        if not self.is_closed():
            task.get_loop().create_task(self.close())

    def exit_status(self) -> int:
        task = self.worker_task
        if task is None or task.cancelled():
            return EXIT_DIED
        error = task.exception()
        if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
            return EXIT_LOGIN
        return EXIT_DIED if error is not None else 0


def use_discord_at(url: str) -> None:
    """Talk to the Discord at `url`: REST under `/api/v10`, the gateway at `/gateway` (a
    `discord.Client` connects to its class's default gateway, never asking `/gateway/bot`)."""
    base = url.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v{discord.http.INTERNAL_API_VERSION}"
    websocket = "ws" + base.removeprefix("http")
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{websocket}/gateway")


async def run_bot(settings: BotSettings, token: str) -> int:
    if settings.discord_url:
        use_discord_at(settings.discord_url)
    api = ApiClient(settings.api_url, settings.api_key, timeout=settings.api_timeout_seconds)
    client = GenjiBot(settings, api)
    try:
        async with client:
            await client.start(token)
    except discord.LoginFailure:
        log.error("Discord refused the bot's token (DISCORD_TOKEN); the bot did not start")
        await api.aclose()
        return EXIT_LOGIN
    except (discord.ConnectionClosed, discord.PrivilegedIntentsRequired) as error:
        code = getattr(error, "code", 4014)
        log.error(
            "Discord closed the gateway with %s and does not allow resuming; the queue worker "
            "was drained and the bot stops (fix the token or intents before restarting it)",
            code,
        )
        await api.aclose()
        return EXIT_LOGIN
    if client.draining:
        return EXIT_DIED
    return client.exit_status()
