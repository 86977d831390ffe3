"""Shared fixtures: one PostgreSQL server per session, a fresh migrated database per test.

The server is the project's own throwaway cluster (or DATABASE_URL, which must allow creating
databases and roles). pytest-postgresql migrates a template database once; every test gets a
clone of it. Tests that crash or restart PostgreSQL own a separate cluster instead.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import psycopg
import pytest
from acceptance import pytest_addoption, pytest_configure  # noqa: F401  (the acceptance gate)
from genji_api.migrate import apply_plan
from genji_devstack.cluster import PgCluster
from pytest_postgresql import factories
from testdb import WORKER_ROLE, Connect, Database, Server, make_dsn


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    url = os.environ.get("DATABASE_URL")
    if url:
        parts = urlsplit(url)
        yield Server(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 5432,
            user=parts.username or "postgres",
            password=parts.password,
        )
        return
    with PgCluster() as cluster:
        yield Server(
            host=cluster.host, port=cluster.port, user=cluster.user, password=None, cluster=cluster
        )


def _migrate_template(
    host: str, port: int, user: str, dbname: str, password: str | None = None, **_: Any
) -> None:
    apply_plan(make_dsn(host, port, user, dbname, password))


postgresql_noproc = factories.postgresql_noproc(
    dbname="genji_test", load=[_migrate_template], depends_on="pg_server"
)
postgresql = factories.postgresql("postgresql_noproc")


@pytest.fixture
def db(postgresql: psycopg.Connection[Any], pg_server: Server) -> Database:
    name = postgresql.info.dbname
    return Database(
        dsn=make_dsn(pg_server.host, pg_server.port, pg_server.user, name, pg_server.password),
        worker_dsn=make_dsn(pg_server.host, pg_server.port, WORKER_ROLE, name),
        name=name,
    )


@pytest.fixture
async def connect(db: Database) -> AsyncIterator[Connect]:
    """Open asyncpg connections to the test database (as owner, or as='worker')."""
    opened: list[asyncpg.Connection] = []

    async def _connect(role: str = "owner") -> asyncpg.Connection:
        conn = await asyncpg.connect(db.worker_dsn if role == "worker" else db.dsn)
        opened.append(conn)
        return conn

    yield _connect
    for conn in opened:
        if not conn.is_closed():
            await conn.close()


@pytest.fixture
def empty_database(pg_server: Server) -> Iterator[str]:
    """An empty database (no migrations) on the session server; returns its DSN."""
    name = "genji_empty"
    admin = make_dsn(pg_server.host, pg_server.port, pg_server.user, "postgres", pg_server.password)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    yield make_dsn(pg_server.host, pg_server.port, pg_server.user, name, pg_server.password)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
