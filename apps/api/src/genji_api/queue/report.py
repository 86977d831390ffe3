"""`python -m genji_api.queue.report`: queue depth, oldest ready job, held/uncertain, workers."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from datetime import timedelta

import asyncpg
from genji_queue.metrics import queue_metrics


async def _report(dsn: str, alive_within: timedelta) -> str:
    conn = await asyncpg.connect(dsn)
    try:
        metrics = await queue_metrics(conn, alive_within)
    finally:
        await conn.close()
    width = max(len(k) for k in metrics)
    return "\n".join(f"{k.ljust(width)}  {'-' if v is None else v}" for k, v in metrics.items())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print queue health.")
    parser.add_argument("--database", default=os.environ.get("DATABASE_URL"))
    parser.add_argument(
        "--alive-within", type=float, default=60.0, help="seconds since a worker's last beat"
    )
    args = parser.parse_args(argv)
    if not args.database:
        parser.error("--database or DATABASE_URL is required")
    print(asyncio.run(_report(args.database, timedelta(seconds=args.alive_within))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
