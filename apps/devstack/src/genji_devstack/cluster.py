"""A throwaway PostgreSQL cluster built from the system binaries.

initdb, pg_ctl and postgres refuse to run as root, so every server command drops to the
`postgres` OS user. Data lives under /tmp (never under the repository, which may sit
beneath a 0700 home directory). The cluster listens on 127.0.0.1 and on a Unix socket in
its own directory, on a free port.

Logins are as in production: every connection, local or TCP, authenticates with
scram-sha-256. The bootstrap superuser only creates the owner role and its databases; the
owner runs the migrations and sets the worker login's password. Each cluster makes up its
own random passwords.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from genji_api.worker_password import set_worker_password
from genji_sdk.roles import OWNER_ROLE, WORKER_ROLE, login_dsn

from genji_devstack import roles
from genji_devstack.ports import free_port

SUPERUSER = "genji"
SERVER_SETTINGS = "-c max_connections=200 -c shared_buffers=128MB"
# Crash safety: all on for a server that is killed or restarted; all off only for one that
# never is (a crash then may lose or corrupt committed data).
DURABILITY_SETTINGS = ("fsync", "synchronous_commit", "full_page_writes")


class ClusterError(RuntimeError):
    """The cluster could not be created, started or stopped."""


def find_bindir() -> Path:
    """Newest installed PostgreSQL server binaries (Debian layout)."""
    override = os.environ.get("PG_BINDIR")
    if override:
        return Path(override)
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name),
    )
    if not candidates:
        raise ClusterError(
            "PostgreSQL server binaries not found; run `just deps` (installs Debian's postgresql)"
        )
    return Path(candidates[-1]).parent


def _pid_state(pid: int) -> str | None:
    """Process state letter from /proc, or None when the process is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def _alive(pid: int) -> bool:
    # Orphans are reaped lazily in this sandbox; a zombie counts as dead.
    return _pid_state(pid) not in (None, "Z", "X")


@dataclass
class PgCluster:
    """One PostgreSQL cluster owned by this process (or by a test)."""

    port: int = field(default_factory=free_port)
    root: Path = field(
        default_factory=lambda: Path(tempfile.mkdtemp(prefix="genjipg-", dir="/tmp"))
    )
    user: str = SUPERUSER
    host: str = "127.0.0.1"
    bindir: Path = field(default_factory=find_bindir)
    durable: bool = True
    password: str = field(default_factory=lambda: secrets.token_urlsafe(18), repr=False)
    owner_password: str = field(default_factory=lambda: secrets.token_urlsafe(18), repr=False)
    worker_password: str = field(default_factory=lambda: secrets.token_urlsafe(18), repr=False)

    def __post_init__(self) -> None:
        self._pw = pwd.getpwnam("postgres")
        self.data = self.root / "data"
        self.sockdir = self.root / "sock"
        self.logfile = self.root / "server.log"

    @property
    def durability(self) -> str:
        """The crash-safety settings the server runs with, e.g. for a benchmark's header."""
        value = "on" if self.durable else "off"
        return " ".join(f"{name}={value}" for name in DURABILITY_SETTINGS)

    # -- connection strings -------------------------------------------------------------
    def dsn(self, dbname: str = "postgres", user: str | None = None) -> str:
        """A login to `dbname`: the bootstrap superuser unless `user` names another role.

        The owner and worker roles get their passwords from this cluster; any other role
        connects without one.
        """
        login = user or self.user
        passwords = {
            self.user: self.password,
            OWNER_ROLE: self.owner_password,
            WORKER_ROLE: self.worker_password,
        }
        base = f"postgresql://{self.host}:{self.port}/{dbname}"
        return login_dsn(base, login, passwords.get(login))

    def admin_dsn(self, dbname: str = "postgres") -> str:
        return self.dsn(dbname)

    def owner_dsn(self, dbname: str) -> str:
        return self.dsn(dbname, user=OWNER_ROLE)

    def worker_dsn(self, dbname: str) -> str:
        return self.dsn(dbname, user=WORKER_ROLE)

    # -- identities -----------------------------------------------------------------------
    def create_owned_database(self, dbname: str) -> str:
        """Create the owner role (once) and `dbname` owned by it; returns the owner's DSN."""
        roles.ensure_owner_role(self.admin_dsn(), self.owner_password)
        roles.create_owned_database(self.admin_dsn(), dbname)
        return self.owner_dsn(dbname)

    def set_worker_password(self) -> None:
        """As the owner, give the worker login this cluster's worker password.

        The role comes from the migration plan, so call this after applying it.
        """
        set_worker_password(self.owner_dsn("postgres"), self.worker_password)

    # -- lifecycle ------------------------------------------------------------------------
    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        as_root = os.geteuid() == 0
        return subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            user=self._pw.pw_uid if as_root else None,
            group=self._pw.pw_gid if as_root else None,
            extra_groups=[] if as_root else None,
            cwd="/tmp",
            check=check,
            capture_output=True,
            text=True,
        )

    def init(self) -> None:
        for d in (self.root, self.sockdir):
            d.mkdir(parents=True, exist_ok=True)
            if os.geteuid() == 0:
                os.chown(d, self._pw.pw_uid, self._pw.pw_gid)
        self.root.chmod(0o711)
        pwfile = self.root / "bootstrap.pw"
        pwfile.touch(0o600)  # private before the password is in it
        pwfile.write_text(self.password + "\n")
        if os.geteuid() == 0:
            os.chown(pwfile, self._pw.pw_uid, self._pw.pw_gid)
        try:
            result = self._run(
                "initdb",
                "-D",
                str(self.data),
                "-U",
                self.user,
                f"--pwfile={pwfile}",
                "--auth=scram-sha-256",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
                check=False,
            )
        finally:
            pwfile.unlink(missing_ok=True)
        if result.returncode != 0:
            raise ClusterError(f"initdb failed: {result.stderr.strip()}")

    def start(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        durability = " ".join(f"-c {setting}" for setting in self.durability.split())
        options = (
            f"-p {self.port} -c listen_addresses={self.host} -k {self.sockdir} "
            f"{SERVER_SETTINGS} {durability}"
        )
        while True:
            result = self._run(
                "pg_ctl",
                "-D",
                str(self.data),
                "-l",
                str(self.logfile),
                "-w",
                "-t",
                "30",
                "-o",
                options,
                "start",
                check=False,
            )
            if result.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise ClusterError(
                    f"pg_ctl start failed: {result.stderr.strip()}\n{self.log_tail()}"
                )
            self._clear_stale_locks()
            time.sleep(0.1)

    def stop(self, mode: str = "fast") -> None:
        if not (self.data / "postmaster.pid").exists():
            return
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop", check=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def kill9(self) -> None:
        """Crash the server: SIGKILL the postmaster and every backend, as a power cut would."""
        pids = self._server_pids()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in pids):
            if time.monotonic() > deadline:
                raise ClusterError(f"server processes survived SIGKILL: {pids}")
            time.sleep(0.02)
        self._clear_stale_locks()

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (FileNotFoundError, ValueError):
            return None

    def is_running(self) -> bool:
        pid = self.postmaster_pid()
        return pid is not None and _alive(pid)

    def _server_pids(self) -> list[int]:
        pid = self.postmaster_pid()
        if pid is None:
            return []
        pids = [pid]
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                pids.append(int(stat.parent.name))
        return pids

    def _clear_stale_locks(self) -> None:
        pid = self.postmaster_pid()
        if pid is not None and _alive(pid):
            return
        (self.data / "postmaster.pid").unlink(missing_ok=True)
        for lock in self.sockdir.glob(".s.PGSQL.*.lock"):
            lock.unlink(missing_ok=True)

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.logfile.read_text().splitlines()[-lines:])
        except FileNotFoundError:
            return ""

    def destroy(self) -> None:
        if self.is_running():
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    # -- context manager ------------------------------------------------------------------
    def __enter__(self) -> PgCluster:
        try:
            self.init()
            self.start()
        except BaseException:
            self.destroy()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.destroy()


@contextmanager
def running_cluster() -> Iterator[PgCluster]:
    with PgCluster() as cluster:
        yield cluster
