"""`pytest.mark.alone`: a test that runs while no other xdist worker runs one.

A few tests bring up whole stacks (PostgreSQL, API, bot, stand-in) twice over and wait on
them with deadlines the suite keeps; next to other workers' stacks on a small machine they
would miss them. Every test holds a shared lock on a file the controller made for this run,
an `alone` test holds it exclusively. A turnstile lock in front keeps the exclusive one from
waiting forever: once it waits there, no worker starts another test until it has run.
Without xdist (one process) the marker changes nothing.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .parallel import is_controller

RUN_DIR_ENV = "GENJI_TEST_ALONE_DIR"
MARKER = "alone"


@contextmanager
def _flock(path: Path, mode: int) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, mode)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@contextmanager
def _turn(run_dir: Path, alone: bool) -> Iterator[None]:
    turnstile, running = run_dir / "turnstile", run_dir / "running"
    if alone:
        with _flock(turnstile, fcntl.LOCK_EX), _flock(running, fcntl.LOCK_EX):
            yield
        return
    with _flock(turnstile, fcntl.LOCK_EX):
        fd = os.open(running, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_SH)
    try:
        yield
    finally:
        os.close(fd)


class Alone:
    def __init__(self) -> None:
        self.made: str | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        # Before xdist starts the workers, so that they inherit it.
        if is_controller(session.config):
            self.made = os.environ[RUN_DIR_ENV] = tempfile.mkdtemp(prefix="genji-test-alone-")

    def pytest_sessionfinish(self) -> None:
        if self.made is not None:
            os.environ.pop(RUN_DIR_ENV, None)
            shutil.rmtree(self.made, ignore_errors=True)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        run_dir = os.environ.get(RUN_DIR_ENV)
        if not run_dir or not os.environ.get("PYTEST_XDIST_WORKER"):
            return (yield)
        with _turn(Path(run_dir), item.get_closest_marker(MARKER) is not None):
            return (yield)
