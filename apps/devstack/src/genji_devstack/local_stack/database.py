"""The stack's database: the private durable cluster, or DATABASE_URL checked within a connect
timeout; then the migration plan, the worker login's password, the seed rows and the keys.

Logins are production's: the owner role (no superuser) owns the database and applies the
migrations; the bot worker logs in as the worker role with a password. The owner's password is
only ever in a private pgpass file, so the DATABASE_URL the stack prints carries none.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import psycopg
from genji_api.auth import scopes
from genji_api.auth.tokens import issue_token
from genji_api.migrate import MigrationRoleError, apply_plan
from genji_api.worker_password import set_worker_password
from genji_sdk.roles import OWNER_ROLE
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from genji_devstack.cluster import PgCluster
from genji_devstack.local_stack.rundir import REPOSITORY, private_file
from genji_devstack.local_stack.supervisor import StackFailed

DATABASE = "genjishimada"
SEEDS = REPOSITORY / "db" / "seeds" / "local.sql"
CONNECT_TIMEOUT = 5


@dataclass(frozen=True)
class StackDatabase:
    dsn: str
    """The owner's login, password included: for the children only, never printed."""
    operator_url: str
    """The same login without its password, for the operator's shell."""
    passfile: Path | None
    """The pgpass file holding the owner's password, when there is one."""
    worker_password: str | None


def _without_password(dsn: str) -> tuple[str, str | None]:
    params = conninfo_to_dict(dsn)
    password = params.pop("password", None)
    host, port = params.get("host", "localhost"), params.get("port", "5432")
    user, dbname = params.get("user", OWNER_ROLE), params.get("dbname", DATABASE)
    extra = {k: v for k, v in params.items() if k not in ("host", "port", "user", "dbname")}
    url = f"postgresql://{user}@{host}:{port}/{dbname}"
    if extra:
        url += "?" + "&".join(f"{k}={v}" for k, v in sorted(extra.items()))
    return url, None if password is None else str(password)


def _where(dsn: str) -> str:
    params = conninfo_to_dict(dsn)
    return f"{params.get('host', 'localhost')}:{params.get('port', '5432')}/{params.get('dbname')}"


def check_reachable(dsn: str) -> None:
    """One line naming the problem, within CONNECT_TIMEOUT, when DATABASE_URL cannot be used."""
    try:
        where = _where(dsn)
    except psycopg.ProgrammingError:
        raise StackFailed("error: DATABASE_URL is not a PostgreSQL connection URL", 2) from None
    try:
        timed = make_conninfo(dsn, connect_timeout=CONNECT_TIMEOUT)
        with psycopg.connect(timed, autocommit=True):
            pass
    except psycopg.Error as error:
        detail = " ".join(str(error).split()) or type(error).__name__
        raise StackFailed(f"error: DATABASE_URL ({where}) cannot be used: {detail}", 2) from None


def open_database(stack: ExitStack, run: Path) -> StackDatabase:
    external = os.environ.get("DATABASE_URL")
    if external:
        check_reachable(external)
        dsn = external
    else:
        cluster = stack.enter_context(PgCluster(durable=True, root=run / "pg"))
        print(
            f"postgres postmaster pid {cluster.postmaster_pid()}, data in {cluster.root}",
            flush=True,
        )
        dsn = cluster.create_owned_database(DATABASE)
        print(f"private cluster: {cluster.durability}", flush=True)
    try:
        applied = apply_plan(dsn)
    except MigrationRoleError as error:
        raise StackFailed(f"error: {error}", 2) from None
    queue_url = os.environ.get("QUEUE_DATABASE_URL")
    password = os.environ.get("QUEUE_DATABASE_PASSWORD")
    if not password and not queue_url:
        password = secrets.token_urlsafe(18)
    if password:
        set_worker_password(dsn, password)
    print(f"migrations applied: {', '.join(applied) or 'none pending'}", flush=True)
    operator_url, owner_password = _without_password(dsn)
    passfile = None
    if owner_password is not None:
        params = conninfo_to_dict(dsn)
        host, port = params.get("host", "localhost"), params.get("port", "5432")
        fields = (host, port, "*", params.get("user", OWNER_ROLE), owner_password)
        line = ":".join(str(v).replace("\\", "\\\\").replace(":", "\\:") for v in fields)
        passfile = private_file(run / "pgpass", line + "\n")
    return StackDatabase(dsn, operator_url, passfile, password)


def set_stale_heartbeat(dsn: str, seconds: float) -> None:
    """Shorter stale threshold for watching recovery locally (the database owns the setting)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            "UPDATE queue_settings SET stale_heartbeat = make_interval(secs => %s)", (seconds,)
        )
    print(f"stale heartbeat threshold: {seconds:g} s", flush=True)


async def _issue_keys(dsn: str) -> tuple[str, str]:
    conn = await asyncpg.connect(dsn)
    try:
        local = await issue_token(conn, "local", superuser=True)
        bot = await issue_token(conn, "genji-bot", scopes=scopes.BOT)
    finally:
        await conn.close()
    return local, bot


def seed(dsn: str) -> tuple[str, str]:
    """Apply the local seed rows and issue this stack's keys: the superuser's (kept in a file
    whose path is printed) and the bot's (handed to the bot only)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(SEEDS.read_text())
    return asyncio.run(_issue_keys(dsn))
