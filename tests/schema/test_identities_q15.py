"""Q15: the database identities are production's. The plan runs as the non-superuser role that
owns the database, so nothing it creates (SECURITY DEFINER functions above all) carries
superuser rights; the worker login needs its password; the plan itself sets no password."""

import secrets
import time
from collections.abc import Iterator

import asyncpg
import psycopg
import pytest
from genji_api.migrate import MigrationRoleError, apply_plan
from genji_api.worker_password import set_worker_password
from genji_devstack.cluster import PgCluster

from tests.support.secrets_seen import register
from tests.support.testdb import OWNER_ROLE, WORKER_ROLE, Connect, Database, Server, make_dsn

# Under xdist the module's tests stay on one worker, which builds its module fixtures once.
pytestmark = [pytest.mark.queue, pytest.mark.xdist_group("schema-identities")]


async def test_q15_no_function_in_public_is_owned_by_a_superuser(connect: Connect) -> None:
    owner = await connect()
    functions = await owner.fetch(
        """SELECT p.oid::regprocedure::text AS name, r.rolname, r.rolsuper, p.prosecdef
           FROM pg_proc p
           JOIN pg_namespace n ON n.oid = p.pronamespace
           JOIN pg_roles r ON r.oid = p.proowner
           WHERE n.nspname = 'public'"""
    )
    # The plan's SECURITY DEFINER functions are among them, so the check is not vacuous.
    assert any(f["prosecdef"] for f in functions)
    assert [f["name"] for f in functions if f["rolsuper"]] == []


async def test_q15_migrations_ran_as_the_non_superuser_database_owner(connect: Connect) -> None:
    owner = await connect()
    row = await owner.fetchrow(
        """SELECT pg_get_userbyid(c.relowner) AS table_owner,
                  pg_get_userbyid(d.datdba) AS database_owner,
                  r.rolsuper, r.rolcreatedb, r.rolcreaterole
           FROM pg_class c, pg_database d, pg_roles r
           WHERE c.oid = 'public.jobs'::regclass AND d.datname = current_database()
             AND r.oid = c.relowner"""
    )
    assert row is not None
    assert row["table_owner"] == row["database_owner"] == OWNER_ROLE
    assert not row["rolsuper"] and not row["rolcreatedb"] and row["rolcreaterole"]
    others = await owner.fetch(
        """SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relowner <> (
               SELECT datdba FROM pg_database WHERE datname = current_database())"""
    )
    assert others == []


def test_q15_the_plan_refuses_a_superuser_or_a_non_owner(
    pg_server: Server, empty_database: str, db: Database
) -> None:
    name = str(psycopg.conninfo.conninfo_to_dict(empty_database)["dbname"])
    with pytest.raises(MigrationRoleError, match="refusing to migrate as superuser"):
        apply_plan(pg_server.admin_dsn(name))
    with pytest.raises(MigrationRoleError, match="must run as the database owner"):
        apply_plan(db.worker_dsn)


async def _refused(dsn: str) -> None:
    with pytest.raises(asyncpg.InvalidPasswordError, match="password authentication failed"):
        conn = await asyncpg.connect(dsn)
        await conn.close()


async def test_q15_worker_login_needs_its_password(db: Database, pg_server: Server) -> None:
    host, port = pg_server.host, pg_server.port
    await _refused(make_dsn(host, port, WORKER_ROLE, db.name))
    await _refused(make_dsn(host, port, WORKER_ROLE, db.name, "not-the-password"))
    conn = await asyncpg.connect(db.worker_dsn)
    try:
        assert await conn.fetchval("SELECT current_user") == WORKER_ROLE
    finally:
        await conn.close()


@pytest.fixture(scope="module")
def fresh() -> Iterator[PgCluster]:
    """A cluster of our own, migrated once: here the plan creates the worker role rather than
    finding it, and nothing has given it a password yet."""
    with PgCluster(durable=False) as cluster:
        register(cluster.password, cluster.owner_password, cluster.worker_password)
        apply_plan(cluster.create_owned_database("fresh"))
        yield cluster


def test_q15_the_plan_creates_the_worker_role_without_a_password(fresh: PgCluster) -> None:
    with psycopg.connect(fresh.admin_dsn()) as admin:
        row = admin.execute(
            "SELECT rolcanlogin, rolpassword IS NULL FROM pg_authid WHERE rolname = %s",
            (WORKER_ROLE,),
        ).fetchone()
    assert row == (True, True)


async def test_q15_no_login_is_trusted_over_tcp_or_the_socket(fresh: PgCluster) -> None:
    tcp = {"host": fresh.host, "port": fresh.port, "database": "fresh"}
    socket = {**tcp, "host": str(fresh.sockdir)}
    passwords = {fresh.user: fresh.password, OWNER_ROLE: fresh.owner_password}
    for where in (tcp, socket):
        for role in (fresh.user, OWNER_ROLE, WORKER_ROLE):
            with pytest.raises(asyncpg.InvalidPasswordError):
                await asyncpg.connect(user=role, **where)
        # The same logins get in with their passwords (the worker has none yet).
        for role, password in passwords.items():
            conn = await asyncpg.connect(user=role, password=password, **where)
            await conn.close()


def test_q15_the_worker_password_reaches_the_server_only_as_a_scram_verifier(
    fresh: PgCluster,
) -> None:
    """The one setter (the deploy step's, and every dev and test cluster's) hashes the password
    client-side: with every statement logged, the server's log holds the ALTER ROLE and never
    the password, and pg_authid holds a SCRAM-SHA-256 verifier."""
    password = f"plain-{secrets.token_hex(12)}"
    register(password)
    owner = fresh.owner_dsn("fresh")
    with psycopg.connect(fresh.admin_dsn(), autocommit=True) as admin:
        admin.execute("ALTER SYSTEM SET log_statement = 'all'")
        admin.execute("SELECT pg_reload_conf()")
        try:
            deadline = time.monotonic() + 10
            while True:  # the reload reaches new sessions once the postmaster has read it
                with psycopg.connect(owner) as probe:
                    if probe.execute("SHOW log_statement").fetchone() == ("all",):
                        break
                assert time.monotonic() < deadline, "log_statement never became all"
            set_worker_password(owner, password)
            row = admin.execute(
                "SELECT rolpassword FROM pg_authid WHERE rolname = %s", (WORKER_ROLE,)
            ).fetchone()
        finally:
            admin.execute("ALTER SYSTEM RESET log_statement")
            admin.execute("SELECT pg_reload_conf()")
    assert row is not None and row[0].startswith("SCRAM-SHA-256$"), row
    log = fresh.logfile.read_text(errors="replace")
    assert f'ALTER ROLE "{WORKER_ROLE}" PASSWORD' in log, fresh.log_tail()
    assert password not in log
    assert password not in row[0]
