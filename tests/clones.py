"""Clones of the migrated template under a name of their own, for fixtures wider than a test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql
from testdb import OWNER_ROLE, Database, Server


def drop_database(admin_dsn: str, name: str) -> None:
    """Drop `name` if it exists, ending whatever sessions are still connected to it."""
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def create_clone(admin_dsn: str, template: str, name: str) -> None:
    """`name` as a copy of `template`, owned by the owner role."""
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        # A copy needs the template to itself (the migration's login may linger on it).
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            (template,),
        )
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {} OWNER {}").format(
                sql.Identifier(name), sql.Identifier(template), sql.Identifier(OWNER_ROLE)
            )
        )


@contextmanager
def cloned_database(server: Server, template: str, name: str) -> Iterator[Database]:
    """A fresh copy of the migrated `template` named `name`, dropped when the block ends."""
    admin = server.admin_dsn()
    drop_database(admin, name)
    create_clone(admin, template, name)
    try:
        yield Database(
            dsn=server.owner_dsn(name),
            worker_dsn=server.worker_dsn(name),
            name=name,
            admin_dsn=server.admin_dsn(name),
        )
    finally:
        drop_database(admin, name)
