"""`python -m genji_api.queue.report`: queue health, and whether anything needs an operator.

Prints the row of queue_metrics: depth by state, the oldest ready job, held and uncertain counts,
live workers per owner, and the silent workers (no beat within --alive-within) with their last
beat. Exit status: 0 when nothing needs attention; 1 when something does, each reason printed
under "needs attention" (held jobs, uncertain effects, an owner with waiting work and no live
worker); 2 when the health cannot be read (one line on stderr, e.g. the database is unreachable).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import asyncpg
from genji_queue.metrics import queue_metrics
from genji_queue.types import QueueMetrics, SilentWorker

OWNERS = ("bot", "api")
EXIT_HEALTHY, EXIT_ATTENTION, EXIT_UNREADABLE = 0, 1, 2
# What cannot be read, as opposed to a bug in the report: connection, server and DSN errors.
UNREADABLE = (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError)


@dataclass(frozen=True)
class QueueHealth:
    ready: int
    delayed: int
    running: int
    held: int
    uncertain_effects: int
    oldest_ready_age: timedelta | None
    ready_by_owner: dict[str, int]
    running_by_owner: dict[str, int]
    alive_by_owner: dict[str, int]
    silent: list[SilentWorker]

    @classmethod
    def from_metrics(cls, metrics: QueueMetrics) -> QueueHealth:
        return cls(
            ready=metrics.ready,
            delayed=metrics.delayed,
            running=metrics.running,
            held=metrics.held,
            uncertain_effects=metrics.uncertain_effects,
            oldest_ready_age=metrics.oldest_ready_age,
            ready_by_owner=metrics.ready_by_owner(),
            running_by_owner=metrics.running_by_owner(),
            alive_by_owner=metrics.alive_by_owner(),
            silent=list(metrics.silent_workers),
        )

    def attention(self) -> list[str]:
        """What an operator must look at, one sentence each; empty when all is well."""
        reasons = []
        if self.held:
            reasons.append(f"{_count(self.held, 'held job')} waiting for an operator")
        if self.uncertain_effects:
            reasons.append(f"{_count(self.uncertain_effects, 'effect')} with an uncertain outcome")
        for owner in OWNERS:
            ready, running = self.ready_by_owner[owner], self.running_by_owner[owner]
            if (ready or running) and not self.alive_by_owner[owner]:
                reasons.append(
                    f"{owner}: {ready} ready and {running} running but no live {owner} worker"
                )
        return reasons


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


async def read_health(conn: asyncpg.Connection, alive_within: timedelta) -> QueueHealth:
    return QueueHealth.from_metrics(await queue_metrics(conn, alive_within))


def render(health: QueueHealth, alive_within: timedelta, now: datetime) -> str:
    def by_owner(counts: dict[str, int]) -> str:
        return ", ".join(f"{o} {counts[o]}" for o in OWNERS)

    age = health.oldest_ready_age
    rows: list[tuple[str, Any]] = [
        ("ready", f"{health.ready}  ({by_owner(health.ready_by_owner)})"),
        ("delayed", health.delayed),
        ("running", f"{health.running}  ({by_owner(health.running_by_owner)})"),
        ("held", health.held),
        ("uncertain_effects", health.uncertain_effects),
        ("oldest_ready_age", "-" if age is None else _duration(age)),
        (
            "workers_alive",
            f"{sum(health.alive_by_owner.values())}  ({by_owner(health.alive_by_owner)}; "
            f"beat within {_duration(alive_within)})",
        ),
        ("workers_silent", len(health.silent)),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"{name.ljust(width)}  {value}" for name, value in rows]
    lines += [
        f"  {w.owner}  {w.host}  pid {w.pid}  last beat "
        f"{w.beat_at.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC ({_duration(now - w.beat_at)} ago)"
        for w in health.silent
    ]
    reasons = health.attention()
    lines += ["needs attention:", *(f"  - {r}" for r in reasons)] if reasons else ["all clear"]
    return "\n".join(lines)


def _duration(span: timedelta) -> str:
    seconds = int(span.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{seconds:02d}s"
    return f"{minutes}m{seconds:02d}s" if minutes else f"{seconds}s"


def where(dsn: str) -> str:
    """The database a DSN names, without its credentials."""
    parts = urlsplit(dsn)
    host = parts.hostname or parse_qs(parts.query).get("host", ["local socket"])[0]
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}/{parts.path.lstrip('/')}"


async def _report(dsn: str, alive_within: timedelta, seconds: float) -> tuple[str, int]:
    async with asyncio.timeout(seconds):
        conn = await asyncpg.connect(dsn)
        try:
            health = await read_health(conn, alive_within)
        finally:
            await conn.close()
    text = render(health, alive_within, datetime.now(UTC))
    return text, EXIT_ATTENTION if health.attention() else EXIT_HEALTHY


PROG = "python -m genji_api.queue.report"
DESCRIPTION = """Print the queue's health from the database: depth by state (ready per
owner, delayed, running), the oldest ready job, held jobs and uncertain effects, live
workers per owner and the silent ones with their last beat; then "all clear" or, under
"needs attention", each reason (held jobs, uncertain effects, an owner with waiting work
and no live worker)."""
EPILOG = """exit status:
  0  nothing needs attention ("all clear")
  1  something needs attention: each reason is printed under "needs attention"
  2  the health cannot be read (one line on stderr: the database is unreachable,
     refused the login, is not migrated, or took longer than --timeout), or the
     options are not usable (no --database nor DATABASE_URL, a bad number)

Recover held jobs with genji-jobs (docs/queue-operations.md)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=os.environ.get("DATABASE_URL"),
        help="the queue database as a PostgreSQL URL (default: DATABASE_URL); required",
    )
    parser.add_argument(
        "--alive-within",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a worker whose last beat is older than this is listed as silent (default: 60)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="at most this long to connect and read, then exit 2 (default: 10)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.database:
        parser.error("--database or DATABASE_URL is required")
    try:
        text, status = asyncio.run(
            _report(args.database, timedelta(seconds=args.alive_within), args.timeout)
        )
    except UNREADABLE as error:
        detail = " ".join(str(error).split()) or type(error).__name__
        print(
            f"queue report: cannot read queue health from {where(args.database)}: "
            f"{type(error).__name__}: {detail}",
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    print(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
