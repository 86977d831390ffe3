"""The stand-in as one aiohttp application on 127.0.0.1: REST under /api/v10, the gateway at
/gateway, the control API under /_standin/ with its local view for developers at
/_standin/view. Used in process (`async with DiscordStandIn(...)`) or as a process
(`python -m genji_devstack.discord_standin serve`)."""

from __future__ import annotations

from types import TracebackType
from typing import Self

from aiohttp import web

from genji_devstack.discord_standin import view
from genji_devstack.discord_standin.control import Control
from genji_devstack.discord_standin.faults import FaultBook
from genji_devstack.discord_standin.gateway import Gateway
from genji_devstack.discord_standin.gone_clients import quiet_gone_clients
from genji_devstack.discord_standin.rest import PREFIX, Rest, RestConfig
from genji_devstack.discord_standin.world import World

DEFAULT_HEARTBEAT_MS = 41_250
"""Discord's usual heartbeat interval (HELLO), in milliseconds."""


class DiscordStandIn:
    def __init__(
        self,
        world: World,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        nonce_window: float = 180.0,
        heartbeat_interval_ms: int = DEFAULT_HEARTBEAT_MS,
        interaction_timeout: float = 3.0,
        followup_ttl: float = 900.0,
        bucket_limit: int | None = None,
        bucket_window: float = 1.0,
    ) -> None:
        self.world = world
        self.host = host
        self.port = port
        self.faults = FaultBook()
        self.gateway = Gateway(world, heartbeat_interval_ms=heartbeat_interval_ms)
        self.config = RestConfig(
            nonce_window=nonce_window,
            interaction_timeout=interaction_timeout,
            followup_ttl=followup_ttl,
            bucket_limit=bucket_limit,
            bucket_window=bucket_window,
        )
        self.rest = Rest(world, self.gateway, self.faults, self.config)
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        if self._runner is None:
            raise RuntimeError("the stand-in is not running")
        return f"http://{self.host}:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        Control(self.world, self.gateway, self.faults, self.rest.counts).routes(app)
        view.routes(app)
        app.add_subapp(PREFIX, self.rest.app())
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def _on_shutdown(self, app: web.Application) -> None:
        self.faults.clear()
        await self.gateway.shutdown()

    async def start(self) -> None:
        quiet_gone_clients()
        runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=2.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        if self.port == 0:
            server = site._server
            sockets = getattr(server, "sockets", None) or []
            self.port = int(sockets[0].getsockname()[1])
        self.gateway.url = self.gateway_url
        self.config.gateway_url = self.gateway_url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.stop()
