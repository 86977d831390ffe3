"""`just up`: PostgreSQL (private cluster unless DATABASE_URL is set), migrations, seed data,
the API with its worker, the bot worker and the fake OCR service.

The logins are production's: the owner role `genjishimada` (no superuser) owns the database
and applies the migrations, and the bot worker logs in as `genjishimada_queue_worker` with a
password. The private cluster is durable (fsync, synchronous commit and full-page writes on)
and makes up its own passwords. With DATABASE_URL, that URL must log in as the database's
owner, and the worker login gets QUEUE_DATABASE_PASSWORD (or a generated password when neither
it nor QUEUE_DATABASE_URL is set).

After migrating it applies `db/seeds/local.sql` and issues a superuser API key for the seeded
`local` user, written to a private file whose path is printed with the API's URL and OpenAPI
pages (the key itself is never printed), and the bot's own key (every
scope, not a superuser), handed to the bot only. Children: the fake OCR service
on loopback, the bot and the API process (`python -m genji_api`: uvicorn and the API worker).
The bot is always the real client, `python -m genji_bot`. With DISCORD_TOKEN set it talks to
Discord itself; without it, to a loopback stand-in of Discord started first as a child
(`python -m genji_devstack.discord_standin serve` on a free port, ready before the bot starts;
DISCORD_URL and DISCORD_TOKEN point the bot at it), whose URL is printed with the command that
lists what it holds (`python -m genji_devstack.discord_standin report --url URL`) and the URL
of its local view in a browser (`URL/_standin/view`: its channels and messages, and its buttons
to press as a member). The API and the bot each serve /metrics on a free loopback port, printed
with the API's URL. A child that dies is restarted the way a process manager would (but not one
whose login is refused); the stand-in keeps its world in memory only, so a restarted stand-in
is announced as starting empty. Stays in the foreground until Ctrl-C or SIGTERM, then stops the
API and the bot (graceful drain), then the services they use (the fake OCR service, the
stand-in) and the cluster. It prints the PIDs of its own process, the PostgreSQL postmaster and
each child, so an operator can signal exactly those.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import psycopg
from genji_bot.settings import bot_settings_from_env
from genji_devstack.cluster import PgCluster
from genji_devstack.roles import set_worker_password
from genji_sdk.roles import OWNER_ROLE, login_dsn
from genji_worker.process import EXIT_LOGIN, worker_dsn

from genji_api.auth import scopes
from genji_api.auth.keys import KEY_PREFIX_CHARS, key_digest, new_api_key
from genji_api.migrate import MigrationRoleError, apply_plan

DATABASE = "genjishimada"
SEEDS = Path(__file__).resolve().parents[4] / "db" / "seeds" / "local.sql"
# The seeded bot account, the verifier of automatic verdicts.
BOT_USER_ID = 1000000000000000000


def _psql_hint(cluster: PgCluster) -> str:
    """A psql command for the owner's login whose password sits in a private pgpass file, so
    it never appears in the output."""
    passfile = cluster.root / "pgpass"
    passfile.touch(0o600)
    passfile.write_text(f"{cluster.host}:{cluster.port}:*:{OWNER_ROLE}:{cluster.owner_password}\n")
    return f"PGPASSFILE={passfile} psql {login_dsn(cluster.owner_dsn(DATABASE), OWNER_ROLE, None)}"


def _key_file(stack: ExitStack, api_key: str) -> Path:
    """The local superuser key in a private file (removed when the stack stops), so it never
    appears in the output, which ends up in terminals, logs and CI artifacts."""
    directory = Path(tempfile.mkdtemp(prefix="genji-stack-key-"))  # mode 0700
    stack.callback(shutil.rmtree, directory, True)
    path = directory / "api-key"
    path.touch(0o600)
    path.write_text(api_key + "\n")
    return path


def _set_stale_heartbeat(dsn: str, seconds: float) -> None:
    """Shorter stale threshold for watching recovery locally (the database owns the setting)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            "UPDATE queue_settings SET stale_heartbeat = make_interval(secs => %s)", (seconds,)
        )
    print(f"stale heartbeat threshold: {seconds:g} s", flush=True)


def _interrupt(*_: object) -> None:
    # Signals often arrive twice (the terminal's group and uv's forwarding): ignore repeats so
    # they cannot interrupt the cleanup itself.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _issue_key(
    conn: psycopg.Connection[tuple[object, ...]],
    username: str,
    *,
    superuser: bool,
    granted: frozenset[str],
) -> str:
    api_key = new_api_key()
    conn.execute(
        "INSERT INTO auth.users (username) VALUES (%s) ON CONFLICT (username) DO NOTHING",
        (username,),
    )
    conn.execute(
        "INSERT INTO auth.api_tokens (user_id, key_hash, key_prefix, is_superuser, scopes) "
        "SELECT id, %s, %s, %s, %s FROM auth.users WHERE username = %s",
        (key_digest(api_key), api_key[:KEY_PREFIX_CHARS], superuser, sorted(granted), username),
    )
    return api_key


def _seed(dsn: str) -> tuple[str, str]:
    """Apply the local seed rows and issue this stack's keys: the superuser's (shown once) and
    the bot's (never shown)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(SEEDS.read_text())
        local = _issue_key(conn, "local", superuser=True, granted=frozenset())
        bot = _issue_key(conn, "genji-bot", superuser=False, granted=scopes.BOT)
    return local, bot


def _wait_until_serving(url: str, deadline: float = 60.0) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"{url}/healthcheck", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    print(f"warning: the API did not answer {url}/healthcheck within {deadline:.0f}s", flush=True)


def _wait_for_standin(url: str, process: subprocess.Popen[bytes], deadline: float = 60.0) -> None:
    """Until the stand-in's control API answers, so the bot never starts before its Discord."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if process.poll() is not None:
            raise SystemExit(f"the Discord stand-in exited with {process.returncode} at start")
        try:
            with urllib.request.urlopen(f"{url}/_standin/gateway", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"the Discord stand-in did not answer at {url} within {deadline:.0f}s")


class Processes:
    """The stack's long-running children, restarted when one dies."""

    def __init__(self) -> None:
        self.commands: dict[str, tuple[list[str], dict[str, str]]] = {}
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.services: set[str] = set()
        self.restart_notes: dict[str, str] = {}

    def start(
        self,
        name: str,
        command: list[str],
        env: dict[str, str],
        *,
        service: bool = False,
        restart_note: str | None = None,
    ) -> subprocess.Popen[bytes]:
        """Start a child. A service is one the others use: it stops after them. The restart note
        is printed whenever the child is restarted."""
        self.commands[name] = (command, env)
        if service:
            self.services.add(name)
        if restart_note:
            self.restart_notes[name] = restart_note
        self._spawn(name)
        return self.processes[name]

    def _spawn(self, name: str) -> None:
        command, env = self.commands[name]
        self.processes[name] = subprocess.Popen(
            command,
            env=env,
            start_new_session=True,  # Ctrl-C reaches them through us, in order
        )
        print(f"{name} started (pid {self.processes[name].pid})", flush=True)

    def restart_dead(self) -> None:
        for name, process in self.processes.items():
            code = process.poll()
            if code == EXIT_LOGIN:
                raise SystemExit(f"{name} cannot log in to the queue database; stopping")
            if code is not None:
                print(f"{name} exited with {code}; restarting", flush=True)
                note = self.restart_notes.get(name)
                if note:
                    print(note, flush=True)
                self._spawn(name)

    def stop(self) -> None:
        """The API and the bot first (they drain, still reaching Discord and the OCR service),
        then the services."""
        names = list(self.processes)
        for group in (
            [n for n in names if n not in self.services],
            [n for n in names if n in self.services],
        ):
            for name in reversed(group):
                if self.processes[name].poll() is None:
                    self.processes[name].terminate()
            for name in group:
                try:
                    self.processes[name].wait(60)
                except subprocess.TimeoutExpired:
                    self.processes[name].kill()


def main() -> int:
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    with ExitStack() as stack:
        dsn = os.environ.get("DATABASE_URL")
        hint = "psql with DATABASE_URL"
        if not dsn:
            cluster = stack.enter_context(PgCluster(durable=True))
            print(
                f"postgres postmaster pid {cluster.postmaster_pid()}, data in {cluster.root}",
                flush=True,
            )
            dsn = cluster.create_owned_database(DATABASE)
            hint = _psql_hint(cluster)
            print(f"private cluster: {cluster.durability}", flush=True)
        try:
            applied = apply_plan(dsn)
        except MigrationRoleError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        queue_url = os.environ.get("QUEUE_DATABASE_URL")
        password = os.environ.get("QUEUE_DATABASE_PASSWORD")
        if not password and not queue_url:
            password = secrets.token_urlsafe(18)
        if password:
            set_worker_password(dsn, password)
        print(f"migrations applied: {', '.join(applied) or 'none pending'}", flush=True)
        stale = os.environ.get("GENJI_STALE_HEARTBEAT")
        if stale:
            _set_stale_heartbeat(dsn, float(stale))
        print(f"database ready: {hint}", flush=True)

        api_key, bot_key = _seed(dsn)
        standin = not os.environ.get("DISCORD_TOKEN")
        # The bot's environment never carries the owner's connection string.
        base = {
            k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "QUEUE_DATABASE_URL")
        }
        base["BOT_USER_ID"] = str(BOT_USER_ID)
        bot_dsn = queue_url or worker_dsn(dsn, password)
        ocr_port, api_port = _free_port(), _free_port()
        url = f"http://127.0.0.1:{api_port}"
        # Each process serves its own /metrics on loopback (genji_worker.metrics).
        api_metrics, bot_metrics = _free_port(), _free_port()
        processes = Processes()
        stack.callback(processes.stop)
        processes.start(
            "fake OCR",
            [sys.executable, "-m", "genji_devstack.fake_ocr", "--port", str(ocr_port)],
            base,
            service=True,
        )
        discord: dict[str, str] = {}
        if standin:
            standin_url = f"http://127.0.0.1:{_free_port()}"
            # A throwaway token of this stack's own, which only its stand-in accepts.
            standin_token = secrets.token_urlsafe(24)
            serve = ["serve", "--port", standin_url.rsplit(":", 1)[1], "--token", standin_token]
            process = processes.start(
                "Discord stand-in",
                [sys.executable, "-m", "genji_devstack.discord_standin", *serve],
                {k: v for k, v in base.items() if k not in ("DISCORD_TOKEN", "DISCORD_URL")},
                service=True,
                restart_note=(
                    "warning: the Discord stand-in keeps everything in memory: the restarted "
                    f"one at {standin_url} starts empty (no messages, interactions or denied "
                    "channels of before), and the bot's edits of earlier messages find nothing"
                ),
            )
            _wait_for_standin(standin_url, process)
            discord = {"DISCORD_URL": standin_url, "DISCORD_TOKEN": standin_token}
            # The API accepts a Retry job or Discard press only from the configured guild's
            # job alerts channel: the ones the stand-in was seeded with.
            seeded = bot_settings_from_env({**base, "GENJI_API_KEY": bot_key})
            base.setdefault("DISCORD_GUILD_ID", str(seeded.guild_id))
            base.setdefault("JOB_ALERTS_CHANNEL_ID", str(seeded.channels.job_alerts))
            # The local view presses as the operator by default: let them moderate too.
            base.setdefault("MODERATOR_IDS", ",".join(map(str, seeded.queue_operator_ids)))
        processes.start(
            "bot worker",
            [sys.executable, "-m", "genji_bot"],
            {
                **base,
                **discord,
                "QUEUE_DATABASE_URL": bot_dsn,
                "GENJI_API_URL": url,
                "GENJI_API_KEY": bot_key,
                "GENJI_METRICS_PORT": str(bot_metrics),
                "GENJI_METRICS_ADDR": "127.0.0.1",
            },
        )
        processes.start(
            "API and API worker",
            [sys.executable, "-m", "genji_api"],
            {
                **base,
                "DATABASE_URL": dsn,
                "API_PORT": str(api_port),
                "OCR_URL": f"http://127.0.0.1:{ocr_port}",
                "GENJI_METRICS_PORT": str(api_metrics),
                "GENJI_METRICS_ADDR": "127.0.0.1",
            },
        )
        print(f"stack pid {os.getpid()}: stop with Ctrl-C or kill -TERM {os.getpid()}", flush=True)
        try:
            _wait_until_serving(url)
            if standin:
                print(
                    f"no DISCORD_TOKEN: the bot talks to the Discord stand-in at "
                    f"{discord['DISCORD_URL']}",
                    flush=True,
                )
                print(
                    "list what it holds: uv run --frozen python -m "
                    f"genji_devstack.discord_standin report --url {discord['DISCORD_URL']}",
                    flush=True,
                )
                print(
                    f"local view of Discord: {discord['DISCORD_URL']}/_standin/view",
                    flush=True,
                )
            else:
                print("DISCORD_TOKEN is set: the bot talks to Discord itself", flush=True)
            print(f"API: {url}  (OpenAPI: {url}/schema/swagger, {url}/schema/openapi.json)")
            print(
                f"metrics: API http://127.0.0.1:{api_metrics}/metrics, "
                f"bot http://127.0.0.1:{bot_metrics}/metrics"
            )
            key_file = _key_file(stack, api_key)
            print(f"local API key (superuser) in {key_file}: KEY=$(cat {key_file})", flush=True)
            while True:
                time.sleep(0.5)
                processes.restart_dead()
        except KeyboardInterrupt:
            print(
                "stopping the API and the workers (graceful drain), then the database", flush=True
            )
    print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
