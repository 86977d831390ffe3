"""Where one `just up` keeps its files: a directory per run under one directory per checkout
and OS user, so whatever a killed run left behind is found and removed by the next start.

A run directory holds the PostgreSQL cluster (`pg/`), the pgpass file, the API key file and
`pids`, one `name pid` line per child the run started. It is traversable but not listable
(0711: the postgres OS user reaches `pg/` through it); the secret files in it are 0600.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import stat
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[5]
MAIN_MODULE = "genji_devstack.local_stack"


def checkout_dir() -> Path:
    digest = hashlib.sha256(str(REPOSITORY).encode()).hexdigest()[:12]
    return Path("/tmp") / f"genji-up-{os.geteuid()}-{digest}"


def _private_base(base: Path) -> Path:
    try:
        base.mkdir(mode=0o711)
    except FileExistsError:
        info = base.lstat()
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
            raise SystemExit(f"error: {base} exists and is not a directory of this user") from None
    base.chmod(0o711)
    return base


def new_run_dir() -> Path:
    """This run's directory, after removing those of runs that are no longer alive."""
    base = _private_base(checkout_dir())
    for old in base.iterdir():
        mine = old.name == str(os.getpid())  # a dead run's pid given to this one
        if old.name.isdigit() and (mine or not _is_stack(int(old.name))):
            reap(old)
    run = base / str(os.getpid())
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(mode=0o711)
    run.chmod(0o711)
    return run


def record_child(run: Path, name: str, pid: int) -> None:
    with (run / "pids").open("a") as pids:
        pids.write(f"{name.replace(' ', '_')} {pid}\n")


def private_file(path: Path, text: str) -> Path:
    path.touch(0o600)  # private before the secret is in it
    path.chmod(0o600)
    path.write_text(text)
    return path


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _is_stack(pid: int) -> bool:
    return _alive(pid) and MAIN_MODULE in _command(pid)


def _postmaster(run: Path) -> int | None:
    try:
        pid = int((run / "pg" / "data" / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None
    return pid if _alive(pid) and "postgres" in _command(pid) else None


def _children(run: Path) -> list[int]:
    try:
        lines = (run / "pids").read_text().split()
    except OSError:
        return []
    pids = [int(value) for value in lines[1::2] if value.isdigit()]
    # A recorded pid may since belong to another program: only ours are signalled.
    return [pid for pid in pids if _alive(pid) and "genji_" in _command(pid)]


def _kill(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def reap(run: Path, wait: float = 10.0) -> None:
    """Stop what a dead run left: SIGKILL its children (each leads its own session, so their
    group goes too), an immediate shutdown of its postmaster, then remove the directory."""
    for pid in _children(run):
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            _kill(pid, signal.SIGKILL)
    postmaster = _postmaster(run)
    if postmaster is not None:
        _kill(postmaster, signal.SIGQUIT)  # PostgreSQL's immediate shutdown
        end = time.monotonic() + wait
        while _alive(postmaster) and time.monotonic() < end:
            time.sleep(0.05)
        _kill(postmaster, signal.SIGKILL)
    shutil.rmtree(run, ignore_errors=True)
