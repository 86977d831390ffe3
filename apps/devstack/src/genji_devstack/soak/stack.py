"""The soak's stack: a private durable cluster, the API with its worker, the real bots
(`python -m genji_bot`, discord.py) talking to the loopback stand-in of Discord, and the fake
OCR, each a child process the soak may kill, stop, freeze and start again.

Every child keeps its port across restarts (the bots reach a restarted API at the same URL).
The stand-in of Discord is started first and lives for the whole soak: it holds what Discord
holds (messages, threads, DMs), which the checks and the operator read through its control API.
The soak's own database sessions name themselves `genji-soak` so a fault that terminates the
services' backends leaves the soak's observers alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx
from genji_api.auth import scopes
from genji_api.auth.tokens import issue_token
from genji_api.migrate import apply_plan
from genji_api.worker_password import set_worker_password
from genji_bot.settings import BotSettings, bot_settings_from_env
from genji_sdk.roles import OWNER_ROLE
from genji_worker.process import worker_dsn

from genji_devstack.child_process import ChildProcess
from genji_devstack.cluster import PgCluster
from genji_devstack.discord_standin.control import StandInControl
from genji_devstack.discord_standin.seed import DEFAULT_TOKEN
from genji_devstack.ports import free_port

DATABASE = "genji_soak"
APPLICATION = "genji-soak"
# What a session meets while the cluster is killed, restarting or terminating backends.
CONNECTION_ERRORS = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.InterfaceError,
    # asyncpg's answer on a pooled or kept session whose server process died under it
    # ("cannot switch to state ...; another operation is in progress").
    asyncpg.InternalClientError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
)
BOT_USER_ID = 10**18
OPERATOR_ID = 1_098_765_432_109_876_543
STALE_HEARTBEAT_SECONDS = 3.0
STANDIN_READY_SECONDS = 30.0
# Quick retries and reconnects, so a soak spends its time on faults rather than on waiting.
FAST = {
    "GENJI_QUEUE_POLLING_FALLBACK": "0.5",
    "GENJI_QUEUE_DRAIN_TIMEOUT": "2",
    "GENJI_QUEUE_RECONNECT_INITIAL": "0.2",
    "GENJI_QUEUE_RECONNECT_MAX": "1",
    "GENJI_QUEUE_RETRY_DELAYS": "0.5,1,2",
    "GENJI_QUEUE_DEPENDENCY_WAIT": "0.5",
}
# The soak records which request caused each job: the envelope's x-request-id, copied in the
# transaction that enqueued it (so it commits exactly when the job does).
TRACE_SQL = """
CREATE SCHEMA IF NOT EXISTS soak;
CREATE TABLE IF NOT EXISTS soak.job_requests (
    job_id uuid PRIMARY KEY,
    entrypoint text NOT NULL,
    request_id text
);
CREATE OR REPLACE FUNCTION soak.record_request() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = soak, pg_catalog AS $$
DECLARE
    v_envelope jsonb := convert_from(NEW.payload, 'UTF8')::jsonb;
BEGIN
    INSERT INTO soak.job_requests (job_id, entrypoint, request_id)
    VALUES ((v_envelope ->> 'job_id')::uuid, NEW.entrypoint,
            v_envelope -> 'trace' ->> 'x-request-id')
    ON CONFLICT (job_id) DO NOTHING;
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS soak_record_request ON public.pgqueuer;
CREATE TRIGGER soak_record_request AFTER INSERT ON public.pgqueuer
    FOR EACH ROW EXECUTE FUNCTION soak.record_request();
GRANT USAGE ON SCHEMA soak TO {owner};
GRANT SELECT ON soak.job_requests TO {owner};
"""


@dataclass
class Child(ChildProcess):
    """One service process, started again with the same command and environment."""

    down: bool = False
    """Taken down on purpose (by a fault): not started again until the fault starts it."""

    def start(self) -> None:
        self.down = False
        self.spawn()

    def kill(self) -> None:
        self.down = True
        super().kill()

    def stop(self, timeout: float = 20.0) -> None:
        self.down = True
        super().stop(timeout)


@dataclass
class SoakStack:
    root: Path
    cluster: PgCluster = field(default_factory=lambda: PgCluster(durable=True))
    dsn: str = ""
    worker_password: str = field(default_factory=lambda: secrets.token_urlsafe(18), repr=False)
    api_key: str = field(default="", repr=False)
    bot_key: str = field(default="", repr=False)
    api_port: int = field(default_factory=free_port)
    ocr_port: int = field(default_factory=free_port)
    discord_port: int = field(default_factory=free_port)
    api: Child | None = None
    discord: Child | None = None
    """The stand-in of Discord: never a fault's victim, it lives as long as the soak."""
    ocr: Child | None = None
    bots: list[Child] = field(default_factory=list)
    extra_bots: list[Child] = field(default_factory=list)
    restarts: dict[str, int] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"

    @property
    def discord_url(self) -> str:
        return f"http://127.0.0.1:{self.discord_port}"

    def control(self) -> StandInControl:
        """A client of the stand-in's control and inspection API (close it after use)."""
        return StandInControl(self.discord_url)

    def bot_settings(self) -> BotSettings:
        """The settings every bot runs with (and the stand-in's world is seeded from)."""
        return bot_settings_from_env({**self._base_env(), "GENJI_API_KEY": "unused"})

    # -- database ----------------------------------------------------------------------------
    def prepare_database(self) -> None:
        self.cluster.init()
        self.cluster.start()
        self.dsn = self.cluster.create_owned_database(DATABASE)
        apply_plan(self.dsn)
        set_worker_password(self.dsn, self.worker_password)

    async def connect(self, *, superuser: bool = False) -> asyncpg.Connection:
        """A session of the soak's own (never terminated by the backend fault)."""
        dsn = self.cluster.admin_dsn(DATABASE) if superuser else self.dsn
        conn: asyncpg.Connection = await asyncpg.connect(
            dsn, server_settings={"application_name": APPLICATION}, timeout=10
        )
        return conn

    async def configure(self) -> None:
        admin = await self.connect(superuser=True)
        try:
            await admin.execute(TRACE_SQL.format(owner=OWNER_ROLE))
        finally:
            await admin.close()
        owner = await self.connect()
        try:
            await owner.execute(
                "UPDATE queue_settings SET stale_heartbeat = make_interval(secs => $1)",
                STALE_HEARTBEAT_SECONDS,
            )
            await owner.execute(
                "INSERT INTO core.users (id, nickname) VALUES ($1, 'Genji Shimada') "
                "ON CONFLICT (id) DO NOTHING",
                BOT_USER_ID,
            )
            self.api_key = await issue_token(owner, "soak", superuser=True)
            self.bot_key = await issue_token(owner, "genji-bot", scopes=scopes.BOT)
        finally:
            await owner.close()

    # -- services ------------------------------------------------------------------------------
    def _base_env(self) -> dict[str, str]:
        kept = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("GENJI_", "QUEUE_")) and k not in ("DATABASE_URL", "OCR_URL")
        }
        return {
            **kept,
            **FAST,
            "PYTHONUNBUFFERED": "1",
            "BOT_USER_ID": str(BOT_USER_ID),
            "QUEUE_OPERATOR_IDS": str(OPERATOR_ID),
        }

    def _bot(self, name: str) -> Child:
        env = {
            **self._base_env(),
            "GENJI_API_URL": self.url,
            "GENJI_API_KEY": self.bot_key,
            "QUEUE_DATABASE_URL": worker_dsn(self.dsn, self.worker_password),
            "DISCORD_URL": self.discord_url,
            "DISCORD_TOKEN": DEFAULT_TOKEN,
        }
        command = [sys.executable, "-m", "genji_bot"]
        return Child(name, command, env, self.root / f"{name}.log")

    def build(self, bots: int) -> None:
        self.discord = Child(
            "discord-standin",
            [
                sys.executable,
                "-m",
                "genji_devstack.discord_standin",
                "serve",
                "--port",
                str(self.discord_port),
                f"--token={DEFAULT_TOKEN}",
            ],
            self._base_env(),
            self.root / "discord-standin.log",
        )
        self.ocr = Child(
            "fake-ocr",
            [sys.executable, "-m", "genji_devstack.fake_ocr", "--port", str(self.ocr_port)],
            self._base_env(),
            self.root / "fake-ocr.log",
        )
        self.api = Child(
            "api",
            [sys.executable, "-m", "genji_api"],
            {
                **self._base_env(),
                "DATABASE_URL": self.dsn,
                "API_PORT": str(self.api_port),
                "GENJI_API_WORKER": "1",
                "OCR_URL": f"http://127.0.0.1:{self.ocr_port}",
                "OCR_TIMEOUT_SECONDS": "3",
                "API_POOL_MAX_SIZE": "6",
                "TOURNAMENT_OUTBOX_INTERVAL": "2",
            },
            self.root / "api.log",
        )
        self.bots = [self._bot(f"bot-{i + 1}") for i in range(bots)]

    def services(self) -> list[Child]:
        assert self.api is not None and self.ocr is not None
        return [self.ocr, self.api, *self.bots, *self.extra_bots]

    def start_all(self) -> None:
        for child in self.services():
            child.start()

    async def start_discord(self) -> None:
        """Start the stand-in of Discord and wait until it answers on its port."""
        assert self.discord is not None
        self.discord.start()
        end = asyncio.get_running_loop().time() + STANDIN_READY_SECONDS
        async with self.control() as control:
            while True:
                if not self.discord.alive():
                    raise RuntimeError(f"the stand-in of Discord exited; see {self.root}")
                try:
                    await control.gateway()
                    return
                except httpx.HTTPError:
                    if asyncio.get_running_loop().time() > end:
                        raise
                await asyncio.sleep(0.1)

    def start_extra_bots(self, count: int) -> list[Child]:
        start = len(self.extra_bots)
        added = [self._bot(f"bot-extra-{start + i + 1}") for i in range(count)]
        for child in added:
            child.start()
        self.extra_bots.extend(added)
        return added

    def restart_dead(self, *, including_down: bool = False) -> list[str]:
        """Start again every core service that died on its own (as a process manager would)."""
        assert self.api is not None and self.ocr is not None
        restarted = []
        for child in [self.ocr, self.api, *self.bots]:
            if not child.alive() and (including_down or not child.down):
                if not child.down:
                    self.restarts[child.name] = self.restarts.get(child.name, 0) + 1
                    restarted.append(child.name)
                child.start()
        return restarted

    def stop_all(self) -> None:
        for child in reversed(self.services()):
            child.stop()
        if self.discord is not None:
            self.discord.stop()

    def destroy(self) -> None:
        for child in self.services() if self.api is not None else []:
            child.kill()
        if self.discord is not None:
            self.discord.kill()
        self.cluster.destroy()

    # -- readiness -------------------------------------------------------------------------------
    async def api_ready(self, client: httpx.AsyncClient) -> bool:
        try:
            return (await client.get(f"{self.url}/healthcheck", timeout=2)).status_code == 200
        except httpx.HTTPError:
            return False

    async def registered(self, conn: asyncpg.Connection, child: Child, owner: str) -> bool:
        found = await conn.fetchval(
            "SELECT count(*) FROM queue_workers WHERE owner = $1 AND pid = $2 "
            "AND beat_at > now() - make_interval(secs => $3)",
            owner,
            child.pid,
            STALE_HEARTBEAT_SECONDS,
        )
        return bool(found)


@contextlib.asynccontextmanager
async def running_stack(root: Path, bots: int) -> AsyncIterator[SoakStack]:
    stack = SoakStack(root)
    try:
        await asyncio.to_thread(stack.prepare_database)
        await stack.configure()
        stack.build(bots)
        await stack.start_discord()
        stack.start_all()
        yield stack
    finally:
        stack.destroy()
