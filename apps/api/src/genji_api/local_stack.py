"""`just up`: PostgreSQL (private cluster unless DATABASE_URL is set), migrations, workers.

The logins are production's: the owner role `genjishimada` (no superuser) owns the database
and applies the migrations, and the bot worker logs in as `genjishimada_queue_worker` with a
password. The private cluster is durable (fsync, synchronous commit and full-page writes on)
and makes up its own passwords. With DATABASE_URL, that URL must log in as the database's
owner, and the worker login gets QUEUE_DATABASE_PASSWORD (or a generated password when neither
it nor QUEUE_DATABASE_URL is set).

Runs the bot and API queue workers as child processes, restarting one that dies the way a
process manager would (but not one whose login is refused). Until Discord and OCR handlers are
configured, the workers' handlers record their effects in GENJI_RECORDER_DIR (by default a
directory of this stack's own, so two stacks never share one, removed when the stack stops).
Stays in the foreground until Ctrl-C or SIGTERM, then stops the workers (graceful drain) and the
cluster. It prints the PIDs of its own process, the PostgreSQL postmaster and each worker, so an
operator can signal exactly those.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import psycopg
from genji_devstack.cluster import PgCluster
from genji_devstack.roles import set_worker_password
from genji_sdk.roles import OWNER_ROLE, login_dsn
from genji_worker.process import EXIT_LOGIN, worker_dsn

from genji_api.migrate import MigrationRoleError, apply_plan

DATABASE = "genjishimada"


def _psql_hint(cluster: PgCluster) -> str:
    """A psql command for the owner's login whose password sits in a private pgpass file, so
    it never appears in the output."""
    passfile = cluster.root / "pgpass"
    passfile.touch(0o600)
    passfile.write_text(f"{cluster.host}:{cluster.port}:*:{OWNER_ROLE}:{cluster.owner_password}\n")
    return f"PGPASSFILE={passfile} psql {login_dsn(cluster.owner_dsn(DATABASE), OWNER_ROLE, None)}"


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


class Workers:
    def __init__(self, environments: dict[str, dict[str, str]]) -> None:
        self.environments = environments
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, owner: str) -> None:
        self.processes[owner] = subprocess.Popen(
            [sys.executable, "-m", "genji_worker", owner],
            env=self.environments[owner],
            start_new_session=True,  # Ctrl-C reaches them through us, in order
        )
        print(f"{owner} worker started (pid {self.processes[owner].pid})", flush=True)

    def restart_dead(self) -> None:
        for owner, process in self.processes.items():
            code = process.poll()
            if code == EXIT_LOGIN:
                raise SystemExit(f"{owner} worker cannot log in to the queue database; stopping")
            if code is not None:
                print(f"{owner} worker exited with {code}; restarting", flush=True)
                self.start(owner)

    def stop(self) -> None:
        for process in self.processes.values():
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

        recorder = os.environ.get("GENJI_RECORDER_DIR") or _own_recorder(stack)
        # The bot's environment never carries the owner's connection string.
        base = {
            k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "QUEUE_DATABASE_URL")
        }
        base["GENJI_RECORDER_DIR"] = recorder
        bot_dsn = queue_url or worker_dsn(dsn, password)
        workers = Workers(
            {
                "bot": {**base, "QUEUE_DATABASE_URL": bot_dsn},
                "api": {**base, "QUEUE_DATABASE_URL": dsn},
            }
        )
        stack.callback(workers.stop)
        workers.start("bot")
        workers.start("api")
        print(f"effects are recorded in {recorder}/effects.jsonl", flush=True)
        print(f"stack pid {os.getpid()}: stop with Ctrl-C or kill -TERM {os.getpid()}", flush=True)
        try:
            while True:
                time.sleep(0.5)
                workers.restart_dead()
        except KeyboardInterrupt:
            print("stopping workers (graceful drain), then the database", flush=True)
    print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
