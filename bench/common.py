"""Pieces both benchmarks share: a migrated database on the bench cluster, argument types."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable

import asyncpg
from genji_api.migrate import apply_plan
from genji_devstack.cluster import PgCluster


async def migrated_database(cluster: PgCluster, name: str) -> str:
    """Database `name` on `cluster`, owned and migrated by the owner role, with the worker
    login's password set; returns the owner's DSN."""
    dsn = await asyncio.to_thread(cluster.create_owned_database, name)
    await asyncio.to_thread(apply_plan, dsn)
    await asyncio.to_thread(cluster.set_worker_password)
    return dsn


async def checkpoint(cluster: PgCluster) -> None:
    """CHECKPOINT, as the superuser: the owner role may not (it lacks pg_checkpoint)."""
    admin = await asyncpg.connect(cluster.admin_dsn())
    try:
        await admin.execute("CHECKPOINT")
    finally:
        await admin.close()


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type for whole numbers of at least `minimum`."""

    def parse(text: str) -> int:
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}")
        return value

    return parse
