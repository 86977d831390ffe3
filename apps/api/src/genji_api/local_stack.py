"""`just up`: PostgreSQL (private cluster unless DATABASE_URL is set), migrations, services.

Stays in the foreground until Ctrl-C or SIGTERM and then stops everything it started,
the private cluster included.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from contextlib import ExitStack

import psycopg
from genji_devstack.cluster import PgCluster
from psycopg import sql

from genji_api.migrate import apply_plan

DATABASE = "genjishimada"
WORKER_ROLE = "genjishimada_queue_worker"


def _create_database(cluster: PgCluster) -> str:
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))
    return cluster.dsn(DATABASE)


def _set_worker_password(dsn: str) -> None:
    password = os.environ.get("QUEUE_DATABASE_PASSWORD")
    if not password:
        return
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                sql.Identifier(WORKER_ROLE), sql.Literal(password)
            )
        )


def _interrupt(*_: object) -> None:
    # Signals often arrive twice (the terminal's group and uv's forwarding): ignore repeats so
    # they cannot interrupt the cleanup itself.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def main() -> int:
    # SIGTERM unwinds exactly like Ctrl-C, so the private cluster is always stopped.
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    with ExitStack() as stack:
        dsn = os.environ.get("DATABASE_URL")
        if not dsn:
            cluster = stack.enter_context(PgCluster())
            dsn = _create_database(cluster)
        applied = apply_plan(dsn)
        _set_worker_password(dsn)
        print(f"migrations applied: {', '.join(applied) or 'none pending'}", flush=True)
        print(f"database ready: psql {dsn}", flush=True)
        print("press Ctrl-C to stop", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
