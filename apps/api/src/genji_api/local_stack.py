"""`just up`: PostgreSQL (private cluster unless DATABASE_URL is set), migrations, workers.

Runs the bot and API queue workers as child processes, restarting one that dies the way a
process manager would. Until Discord and OCR handlers are configured, the workers' handlers
record their effects in GENJI_RECORDER_DIR (by default a directory of this stack's own, so two
stacks never share one, removed when the stack stops). Stays in the foreground until Ctrl-C or
SIGTERM, then stops the workers (graceful drain) and the cluster. It prints the PIDs of its own
process, the PostgreSQL postmaster and each worker, so an operator can signal exactly those.
"""

from __future__ import annotations

import os
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
from genji_worker.process import WORKER_ROLE, worker_dsn
from psycopg import sql

from genji_api.migrate import apply_plan

DATABASE = "genjishimada"


def _create_database(cluster: PgCluster) -> str:
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))
    return cluster.dsn(DATABASE)


def _set_worker_password(dsn: str, password: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                sql.Identifier(WORKER_ROLE), sql.Literal(password)
            )
        )


def _own_recorder(stack: ExitStack) -> str:
    """An effect recorder directory of this stack's own, removed when the stack stops."""
    path = Path(tempfile.mkdtemp(prefix="genji-stack-", dir="/tmp"))
    stack.callback(shutil.rmtree, path, True)
    (path / "effects").mkdir()
    return str(path / "effects")


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
            if process.poll() is not None:
                print(f"{owner} worker exited with {process.returncode}; restarting", flush=True)
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
        if not dsn:
            cluster = stack.enter_context(PgCluster())
            print(
                f"postgres postmaster pid {cluster.postmaster_pid()}, data in {cluster.root}",
                flush=True,
            )
            dsn = _create_database(cluster)
        applied = apply_plan(dsn)
        password = os.environ.get("QUEUE_DATABASE_PASSWORD")
        if password:
            _set_worker_password(dsn, password)
        print(f"migrations applied: {', '.join(applied) or 'none pending'}", flush=True)
        print(f"database ready: psql {dsn}", flush=True)

        recorder = os.environ.get("GENJI_RECORDER_DIR") or _own_recorder(stack)
        # The bot's environment never carries the owner's connection string.
        base = {
            k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "QUEUE_DATABASE_URL")
        }
        base["GENJI_RECORDER_DIR"] = recorder
        bot_dsn = os.environ.get("QUEUE_DATABASE_URL") or worker_dsn(dsn, password)
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
