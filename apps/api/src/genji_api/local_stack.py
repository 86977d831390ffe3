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
The bot is `python -m genji_bot` when DISCORD_TOKEN is set; otherwise it is
`python -m genji_devstack.recorded_bot`: the real handlers, with Discord recorded in
GENJI_RECORDER_DIR (by default a directory of this stack's own, removed when the stack stops;
`python -m genji_devstack.effects_report <dir>` lists what it holds). The API and the bot
each serve /metrics on a free loopback port, printed with the API's URL. A child that dies is
restarted the way a process manager would (but not one whose login is refused). Stays in the
foreground until Ctrl-C or SIGTERM, then stops the children (graceful drain) and the cluster. It
prints the PIDs of its own process, the PostgreSQL postmaster and each child, so an operator can
signal exactly those.
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


def _own_recorder(stack: ExitStack) -> str:
    """An effect recorder directory of this stack's own, removed when the stack stops."""
    path = Path(tempfile.mkdtemp(prefix="genji-stack-", dir="/tmp"))
    stack.callback(shutil.rmtree, path, True)
    (path / "effects").mkdir()
    return str(path / "effects")


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


class Processes:
    """The stack's long-running children, restarted when one dies."""

    def __init__(self) -> None:
        self.commands: dict[str, tuple[list[str], dict[str, str]]] = {}
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.commands[name] = (command, env)
        self._spawn(name)

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
                self._spawn(name)

    def stop(self) -> None:
        for process in reversed(list(self.processes.values())):
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()


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
        recorded = not os.environ.get("DISCORD_TOKEN")
        recorder = os.environ.get("GENJI_RECORDER_DIR") or _own_recorder(stack)
        # The bot's environment never carries the owner's connection string.
        base = {
            k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "QUEUE_DATABASE_URL")
        }
        base["GENJI_RECORDER_DIR"] = recorder
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
        )
        processes.start(
            "bot worker",
            [sys.executable, "-m", "genji_devstack.recorded_bot" if recorded else "genji_bot"],
            {
                **base,
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
            print(f"effects are recorded in {recorder}/effects.jsonl", flush=True)
            if recorded:
                print(
                    f"no DISCORD_TOKEN: the bot records Discord in {recorder} "
                    f"(list it: python -m genji_devstack.effects_report {recorder})",
                    flush=True,
                )
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
