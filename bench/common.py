"""Pieces both benchmarks share: a migrated database on the bench cluster, argument types."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable

import asyncpg
from genji_api.migrate import apply_plan
from genji_devstack.cluster import PgCluster


async def migrated_database(cluster: PgCluster, name: str) -> str:
    """Create database `name` on `cluster`, apply the migration plan, return its DSN."""
    admin = await asyncpg.connect(cluster.dsn())
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    dsn = cluster.dsn(name)
    await asyncio.to_thread(apply_plan, dsn)
    return dsn


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type for whole numbers of at least `minimum`."""

    def parse(text: str) -> int:
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}")
        return value

    return parse
