"""Database identities as production has them, set up on any server through an admin login.

The admin (the cluster's bootstrap superuser, or DATABASE_URL's role for tests) only creates
the owner role and the databases it owns. Everything else, the migration plan included, runs
as the owner, and the owner (CREATEROLE) gives the worker login its password
(genji_api.worker_password, which sends only a SCRAM verifier).
"""

from __future__ import annotations

import psycopg
from genji_sdk.roles import OWNER_ROLE
from psycopg import sql

OWNER_ATTRIBUTES = sql.SQL("LOGIN CREATEROLE NOSUPERUSER NOCREATEDB NOREPLICATION NOBYPASSRLS")


def ensure_owner_role(admin_dsn: str, password: str) -> None:
    """Create the application owner role, or reset an existing one to these attributes."""
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (OWNER_ROLE,)).fetchone()
        verb = sql.SQL("ALTER ROLE" if exists else "CREATE ROLE")
        conn.execute(
            sql.SQL("{} {} {} PASSWORD {}").format(
                verb, sql.Identifier(OWNER_ROLE), OWNER_ATTRIBUTES, sql.Literal(password)
            )
        )


def create_owned_database(admin_dsn: str, dbname: str, template: str | None = None) -> None:
    """CREATE DATABASE owned by the owner role (optionally cloned from `template`).

    The owner must own the database: schema public belongs to pg_database_owner, and the plan
    revokes PUBLIC's CREATE on it.
    """
    query = sql.SQL("CREATE DATABASE {} OWNER {}").format(
        sql.Identifier(dbname), sql.Identifier(OWNER_ROLE)
    )
    if template:
        query += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(query)


def drop_database(admin_dsn: str, dbname: str) -> None:
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(dbname))
        )
