"""`python -m genji_worker.health --owner bot|api`: the container health check of a worker.

Healthy (exit 0) only while the database shows this host's worker of that owner consuming: its
liveness row beaten within the stale-heartbeat threshold by a connected session. A process that
is up but whose worker stopped, lost its connection for good or never registered is unhealthy
(exit 1), and so is an unreachable database. It logs in the way the worker does (queue_dsn: the
bot with its queue-only login), so it needs no other credentials. Prints one line, never the DSN.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys
from collections.abc import Mapping, Sequence

import asyncpg
from genji_queue.errors import QueueError
from genji_queue.worker_health import WorkerLiveness, queue_worker_health
from genji_sdk import Owner

from genji_worker.process import QueueLoginError, queue_dsn

HEALTHY, UNHEALTHY = 0, 1
TIMEOUT_SECONDS = 5.0


def _name(error: BaseException) -> str:
    return type(error).__name__


def verdict(owner: Owner, host: str, rows: Sequence[WorkerLiveness], pid: int | None) -> int:
    """Print the finding and return the exit status."""
    mine = [row for row in rows if pid is None or row.pid == pid]
    consuming = [row for row in mine if row.consuming]
    who = f"{owner} worker on {host}" + (f" (pid {pid})" if pid is not None else "")
    if consuming:
        row = consuming[0]
        print(f"{who}: consuming, last beat {row.silent_for.total_seconds():.1f}s ago")
        return HEALTHY
    if not mine:
        print(f"{who}: not registered in the queue database")
    else:
        row = mine[0]
        gone = "" if row.session_alive else ", its database session has ended"
        print(f"{who}: silent for {row.silent_for.total_seconds():.1f}s{gone}")
    return UNHEALTHY


async def check(owner: Owner, host: str, pid: int | None, environ: Mapping[str, str]) -> int:
    try:
        dsn = queue_dsn(owner, environ)
    except QueueLoginError as error:
        print(f"{owner} worker health: {error}")
        return UNHEALTHY
    try:
        conn = await asyncpg.connect(
            dsn,
            timeout=TIMEOUT_SECONDS,
            command_timeout=TIMEOUT_SECONDS,
            server_settings={"application_name": f"genji-{owner}-health"},
        )
    except (OSError, TimeoutError, asyncpg.PostgresError) as error:
        print(
            f"{owner} worker health: cannot reach or log in to the queue database ({_name(error)})"
        )
        return UNHEALTHY
    try:
        rows = await queue_worker_health(conn, owner, host)
    except (TimeoutError, asyncpg.PostgresError, QueueError) as error:
        print(f"{owner} worker health: the liveness query failed ({_name(error)})")
        return UNHEALTHY
    finally:
        await conn.close()
    return verdict(owner, host, rows, pid)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m genji_worker.health", description=__doc__)
    parser.add_argument("--owner", choices=("bot", "api"), required=True)
    parser.add_argument(
        "--host", default=socket.gethostname(), help="the worker's host (default: this one)"
    )
    parser.add_argument("--pid", type=int, help="only the worker of this process id")
    args = parser.parse_args(argv)
    owner: Owner = args.owner
    return asyncio.run(check(owner, args.host, args.pid, os.environ))


if __name__ == "__main__":
    sys.exit(main())
