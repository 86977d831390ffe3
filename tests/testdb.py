"""Types and helpers shared by the database fixtures and the tests that use them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import asyncpg
from genji_devstack.cluster import PgCluster

WORKER_ROLE = "genjishimada_queue_worker"


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    user: str
    password: str | None
    options: str = ""
    maintenance_dbname: str = "postgres"
    template_dbname: str | None = None
    cluster: PgCluster | None = None


def make_dsn(host: str, port: int, user: str, dbname: str, password: str | None = None) -> str:
    auth = f"{user}:{password}" if password else user
    return f"postgresql://{auth}@{host}:{port}/{dbname}"


@dataclass(frozen=True)
class Database:
    """A fresh, fully migrated database for one test."""

    dsn: str
    worker_dsn: str
    name: str


Connect = Callable[..., Awaitable[asyncpg.Connection]]
