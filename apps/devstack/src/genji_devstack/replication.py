"""A streaming standby of a PgCluster, synchronous or not, and its promotion.

The standby is a pg_basebackup of the running primary, taken and streamed by a dedicated
replication login that authenticates with scram-sha-256 like every other login. Its password
is read from a private passfile, so it appears in no command line, configuration setting or
log. The standby runs with the same durability settings as its primary (fsync and
synchronous_commit on). Made synchronous, the primary acknowledges a commit only once the
standby has flushed its WAL: promoting that standby then loses no acknowledged commit.
"""

from __future__ import annotations

import os
import pwd
import secrets
import time
from pathlib import Path

import psycopg
from genji_sdk.roles import login_dsn
from psycopg import sql

from genji_devstack.cluster import ClusterError, PgCluster

REPLICATOR_ROLE = "genji_replicator"
REPLICATION_PASSFILE = "replication.pgpass"


def _own(path: Path) -> None:
    """Hand `path` to the server's OS user when running as root (the server runs as it)."""
    if os.geteuid() == 0:
        server = pwd.getpwnam("postgres")
        os.chown(path, server.pw_uid, server.pw_gid)


def _allow_replication(primary: PgCluster, password: str) -> None:
    """Create (or reset) the replication login and let it connect over TCP with scram."""
    with psycopg.connect(primary.admin_dsn(), autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_roles WHERE rolname = %s", (REPLICATOR_ROLE,)
        ).fetchone()
        conn.execute(
            sql.SQL("{} {} LOGIN REPLICATION NOSUPERUSER PASSWORD {}").format(
                sql.SQL("ALTER ROLE" if exists else "CREATE ROLE"),
                sql.Identifier(REPLICATOR_ROLE),
                sql.Literal(password),
            )
        )
        hba = primary.data / "pg_hba.conf"
        line = f"host replication {REPLICATOR_ROLE} {primary.host}/32 scram-sha-256\n"
        current = hba.read_text()
        if line not in current:
            hba.write_text(line + current)  # first match wins in pg_hba.conf
        conn.execute("SELECT pg_reload_conf()")


def _conninfo(primary: PgCluster, passfile: Path, name: str) -> str:
    return (
        f"host={primary.host} port={primary.port} user={REPLICATOR_ROLE} "
        f"passfile={passfile} application_name={name}"
    )


def make_standby(
    primary: PgCluster, name: str = "standby1", *, synchronous: bool = True, timeout: float = 30.0
) -> PgCluster:
    """Base-backup the running `primary` into a new cluster, start it streaming, and wait until
    the primary reports it streaming (and, when `synchronous`, as its synchronous standby).

    The standby has the primary's roles, so it shares the primary's passwords. Call `destroy()`
    on it when done.
    """
    password = secrets.token_urlsafe(18)
    _allow_replication(primary, password)
    standby = PgCluster(
        durable=primary.durable,
        password=primary.password,
        owner_password=primary.owner_password,
        worker_password=primary.worker_password,
    )
    try:
        for directory in (standby.root, standby.sockdir):
            directory.mkdir(parents=True, exist_ok=True)
            _own(directory)
        standby.root.chmod(0o711)
        passfile = standby.root / REPLICATION_PASSFILE
        passfile.touch(0o600)  # private before the password is in it
        passfile.write_text(f"{primary.host}:{primary.port}:*:{REPLICATOR_ROLE}:{password}\n")
        _own(passfile)
        conninfo = _conninfo(primary, passfile, name)
        result = standby._run(
            "pg_basebackup",
            "-D",
            str(standby.data),
            "-d",
            conninfo,
            "--wal-method=stream",
            "--checkpoint=fast",
            check=False,
        )
        if result.returncode != 0:
            raise ClusterError(f"pg_basebackup failed: {result.stderr.strip()}")
        # The backup copies the primary's postgresql.auto.conf; the standby's own settings
        # follow it, and synchronous_standby_names is set on the primary only after the backup
        # so a promoted standby never waits for a standby of its own.
        with (standby.data / "postgresql.auto.conf").open("a") as conf:
            conf.write(f"primary_conninfo = '{conninfo}'\n")
        signal_file = standby.data / "standby.signal"
        signal_file.touch()
        _own(signal_file)
        standby.start()
        if synchronous:
            require_synchronous(primary, name)
        until_streaming(primary, name, "sync" if synchronous else "async", timeout)
    except BaseException:
        standby.destroy()
        raise
    return standby


def require_synchronous(primary: PgCluster, name: str) -> None:
    """Make `name` the primary's synchronous standby: with synchronous_commit on (the durable
    setting), a commit is acknowledged only once `name` has flushed it."""
    with psycopg.connect(primary.admin_dsn(), autocommit=True) as conn:
        conn.execute(
            sql.SQL("ALTER SYSTEM SET synchronous_standby_names = {}").format(
                sql.Literal(f'FIRST 1 ("{name}")')
            )
        )
        conn.execute("SELECT pg_reload_conf()")


def until_streaming(primary: PgCluster, name: str, sync_state: str, timeout: float) -> None:
    """Wait until the primary shows `name` streaming with `sync_state` ('sync' or 'async')."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(primary.admin_dsn(), autocommit=True) as conn:
        while True:
            row = conn.execute(
                "SELECT state, sync_state FROM pg_stat_replication WHERE application_name = %s",
                (name,),
            ).fetchone()
            if row == ("streaming", sync_state):
                return
            if time.monotonic() > deadline:
                raise ClusterError(
                    f"standby {name} not streaming as {sync_state} after {timeout:.0f}s: {row}"
                )
            time.sleep(0.05)


def walsender_pid(primary: PgCluster, name: str) -> int | None:
    """The primary's WAL sender process serving standby `name`, if connected."""
    with psycopg.connect(primary.admin_dsn(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT pid FROM pg_stat_replication WHERE application_name = %s", (name,)
        ).fetchone()
    return int(row[0]) if row else None


def promote(standby: PgCluster) -> None:
    """End recovery: the standby becomes a primary accepting writes (pg_ctl waits for it)."""
    result = standby._run(
        "pg_ctl", "-D", str(standby.data), "-w", "-t", "30", "promote", check=False
    )
    if result.returncode != 0:
        raise ClusterError(f"pg_ctl promote failed: {result.stderr.strip()}\n{standby.log_tail()}")


def multi_host_dsn(clusters: list[PgCluster], dbname: str, user: str, password: str | None) -> str:
    """One login naming every cluster in order; a client takes the first that accepts writes
    (target_session_attrs=read-write), so it follows a promotion without reconfiguration."""
    hosts = ",".join(f"{c.host}:{c.port}" for c in clusters)
    base = f"postgresql://{hosts}/{dbname}?target_session_attrs=read-write"
    return login_dsn(base, user, password)
