"""Shared fixtures: one PostgreSQL server per session, a fresh migrated database per test.

The server is the project's own throwaway cluster (or DATABASE_URL, which must name a
superuser). Its admin login only creates the owner role and the databases: pytest-postgresql
creates a template database, which is handed to the owner role and migrated by it, and every
test gets a clone of it, also owned by the owner (copied in the background while the test
before it runs). The worker login gets this run's password from the owner. Tests that crash or restart PostgreSQL own a separate, durable cluster instead.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import psycopg
import pytest
from genji_api.migrate import apply_plan
from genji_api.worker_password import set_worker_password
from genji_devstack import roles
from genji_devstack.cluster import PgCluster
from psycopg import sql
from pytest_postgresql import factories

from tests.support import acceptance
from tests.support.acceptance import pytest_addoption  # noqa: F401  (the acceptance gate)
from tests.support.alone import Alone
from tests.support.artifacts import (  # noqa: F401  (per-test logs for CI)
    SESSION,
    keep_log,
    pytest_collection_modifyitems,
    pytest_runtest_setup,
    pytest_runtest_teardown,
    pytest_sessionstart,
)
from tests.support.clones import CloneSupply, drop_database, server_database
from tests.support.final_scan import FinalScan
from tests.support.queue_tables import (  # noqa: F401  (its cost, added up over xdist workers)
    capture,
    pytest_sessionfinish,
    pytest_terminal_summary,
    pytest_testnodedown,
)
from tests.support.secrets_seen import register
from tests.support.testdb import (
    OWNER_PASSWORD,
    OWNER_ROLE,
    WORKER_PASSWORD,
    Connect,
    Database,
    Server,
    make_dsn,
)


def pytest_configure(config: pytest.Config) -> None:
    acceptance.pytest_configure(config)
    config.pluginmanager.register(FinalScan(), "final-credential-scan")
    config.pluginmanager.register(Alone(), "alone")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    url = os.environ.get("DATABASE_URL")
    if url:
        parts = urlsplit(url)
        server = Server(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 5432,
            user=parts.username or "postgres",
            password=parts.password,
        )
        register(parts.password)
        roles.ensure_owner_role(server.admin_dsn(), OWNER_PASSWORD)
        yield server
        return
    # Nothing here crashes or restarts this server, so it may skip the disk flushes.
    cluster = PgCluster(
        durable=False, owner_password=OWNER_PASSWORD, worker_password=WORKER_PASSWORD
    )
    register(cluster.password, cluster.owner_password, cluster.worker_password)
    with cluster:
        roles.ensure_owner_role(cluster.admin_dsn(), OWNER_PASSWORD)
        try:
            yield Server(
                host=cluster.host,
                port=cluster.port,
                user=cluster.user,
                password=cluster.password,
                cluster=cluster,
            )
        finally:
            keep_log(cluster.logfile, "server.log", test=SESSION)


def _hand_to_owner(admin_dsn: str, dbname: str) -> None:
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(
            sql.SQL("ALTER DATABASE {} OWNER TO {}").format(
                sql.Identifier(dbname), sql.Identifier(OWNER_ROLE)
            )
        )


def _migrate_template(
    host: str, port: int, user: str, dbname: str, password: str | None = None, **_: Any
) -> None:
    """pytest-postgresql's loader: it passes the admin login that created the template."""
    _hand_to_owner(make_dsn(host, port, user, "postgres", password), dbname)
    owner_dsn = make_dsn(host, port, OWNER_ROLE, dbname, OWNER_PASSWORD)
    apply_plan(owner_dsn)
    set_worker_password(owner_dsn, WORKER_PASSWORD)


postgresql_noproc = factories.postgresql_noproc(
    dbname="genji_test", load=[_migrate_template], depends_on="pg_server"
)
postgresql = factories.postgresql("postgresql_noproc")


TEST_DATABASE = "genji_test"


@pytest.fixture(scope="session")
def clone_supply(postgresql_noproc: Any, pg_server: Server) -> Iterator[CloneSupply]:
    supply = CloneSupply(pg_server.admin_dsn(), postgresql_noproc.template_dbname)
    try:
        yield supply
    finally:
        supply.close()


@pytest.fixture
def db(clone_supply: CloneSupply, pg_server: Server) -> Iterator[Database]:
    """A fresh clone of the migrated template, owned by the owner role, for this test alone."""
    clone_supply.take(TEST_DATABASE)
    try:
        yield server_database(pg_server, TEST_DATABASE)
    finally:
        capture(pg_server.admin_dsn(TEST_DATABASE), TEST_DATABASE)
        drop_database(pg_server.admin_dsn(), TEST_DATABASE)


@pytest.fixture
async def connect(db: Database) -> AsyncIterator[Connect]:
    """Open asyncpg connections to the test database (as the owner, 'worker' or 'admin')."""
    opened: list[asyncpg.Connection] = []
    logins = {"owner": db.dsn, "worker": db.worker_dsn, "admin": db.admin_dsn}

    async def _connect(role: str = "owner") -> asyncpg.Connection:
        conn = await asyncpg.connect(logins[role])
        opened.append(conn)
        return conn

    yield _connect
    for conn in opened:
        if not conn.is_closed():
            await conn.close()


@pytest.fixture
def empty_database(pg_server: Server) -> Iterator[str]:
    """An empty database (no migrations) owned by the owner role; returns the owner's DSN."""
    name = "genji_empty"
    admin = pg_server.admin_dsn()
    roles.drop_database(admin, name)
    roles.create_owned_database(admin, name)
    yield pg_server.owner_dsn(name)
    capture(pg_server.admin_dsn(name), name)
    roles.drop_database(admin, name)
