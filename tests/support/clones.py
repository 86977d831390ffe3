"""Clones of the migrated template: one made ahead for the next test, and named ones for
fixtures wider than a test."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

import psycopg
from psycopg import sql

from .queue_tables import capture
from .testdb import OWNER_ROLE, Database, Server


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


class CloneSupply:
    """Fresh clones, each made while the test before it runs.

    Copying the template is most of what a test database costs; a background thread copies
    the next one as soon as the last was handed out, and handing one out is a rename.
    """

    def __init__(self, admin_dsn: str, template: str) -> None:
        self._admin = admin_dsn
        self._template = template
        self._serial = itertools.count(1)
        self._copier = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clone-supply")
        self._next: Future[str] | None = None

    def _prepare(self) -> Future[str]:
        name = f"{self._template}_spare_{next(self._serial)}"

        def copy() -> str:
            create_clone(self._admin, self._template, name)
            return name

        return self._copier.submit(copy)

    def take(self, name: str) -> None:
        """Create `name` as a fresh clone (made ahead when possible), owned by the owner."""
        pending, self._next = self._next or self._prepare(), None
        try:
            spare = pending.result()
        except psycopg.Error:
            # The copy made ahead failed (say, a session raced it onto the template): copy now.
            spare = self._prepare().result()
        drop_database(self._admin, name)
        with psycopg.connect(self._admin, autocommit=True) as conn:
            conn.execute(
                sql.SQL("ALTER DATABASE {} RENAME TO {}").format(
                    sql.Identifier(spare), sql.Identifier(name)
                )
            )
        self._next = self._prepare()

    def close(self) -> None:
        if self._next is not None:
            try:
                drop_database(self._admin, self._next.result())
            except psycopg.Error:
                pass
        self._copier.shutdown()


@contextmanager
def cloned_database(server: Server, template: str, name: str) -> Iterator[Database]:
    """A fresh copy of the migrated `template` named `name`, dropped when the block ends."""
    admin = server.admin_dsn()
    drop_database(admin, name)
    create_clone(admin, template, name)
    try:
        yield server_database(server, name)
    finally:
        capture(server.admin_dsn(name), name)
        drop_database(admin, name)


def server_database(server: Server, name: str) -> Database:
    return Database(
        dsn=server.owner_dsn(name),
        worker_dsn=server.worker_dsn(name),
        name=name,
        admin_dsn=server.admin_dsn(name),
    )
