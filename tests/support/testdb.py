"""Types and helpers shared by the database fixtures and the tests that use them."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import asyncpg
from genji_devstack.cluster import PgCluster
from genji_sdk.roles import OWNER_ROLE, WORKER_ROLE

from .secrets_seen import register

__all__ = ("OWNER_ROLE", "WORKER_ROLE")

# This run's passwords for the owner and worker logins (set on whichever server is used).
OWNER_PASSWORD = secrets.token_urlsafe(18)
WORKER_PASSWORD = secrets.token_urlsafe(18)
register(OWNER_PASSWORD, WORKER_PASSWORD)


@dataclass(frozen=True)
class Server:
    """The session's server, reached through its admin login (only ever used to create the
    owner role and databases)."""

    host: str
    port: int
    user: str
    password: str | None
    options: str = ""
    maintenance_dbname: str = "postgres"
    template_dbname: str | None = None
    cluster: PgCluster | None = None

    def dsn(self, dbname: str, user: str | None = None, password: str | None = None) -> str:
        """A login to `dbname`: the admin unless `user` (with `password`) is given."""
        if user is None:
            user, password = self.user, self.password
        return make_dsn(self.host, self.port, user, dbname, password)

    def admin_dsn(self, dbname: str = "postgres") -> str:
        return self.dsn(dbname)

    def owner_dsn(self, dbname: str) -> str:
        return self.dsn(dbname, OWNER_ROLE, OWNER_PASSWORD)

    def worker_dsn(self, dbname: str) -> str:
        return self.dsn(dbname, WORKER_ROLE, WORKER_PASSWORD)


def make_dsn(host: str, port: int, user: str, dbname: str, password: str | None = None) -> str:
    auth = f"{user}:{password}" if password else user
    return f"postgresql://{auth}@{host}:{port}/{dbname}"


@dataclass(frozen=True)
class Database:
    """A fresh, fully migrated database for one test, owned by the owner role."""

    dsn: str
    worker_dsn: str
    name: str
    admin_dsn: str
    """The bootstrap superuser, only for what an administrator alone may do (such as
    terminating another role's backends)."""


Connect = Callable[..., Awaitable[asyncpg.Connection]]
