"""Where a test run leaves what CI uploads: process and server logs, queue table captures.

Each test's files go under test-results/<kind>/<sanitized node id>/. Logs written under a
test's tmp_path are copied there when the test's teardown has finished (its processes are
stopped by then); fixtures that own a cluster copy its server log before destroying it.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections.abc import Generator
from pathlib import Path

import pytest

from .parallel import is_worker, worker_id

# GENJI_TEST_RESULTS moves them, for the tests that run pytest on a sample suite.
RESULTS = Path(
    os.environ.get("GENJI_TEST_RESULTS") or Path(__file__).resolve().parents[2] / "test-results"
)
LOGS = RESULTS / "logs"
SESSION = f"session-{worker_id()}" if worker_id() else "session"
"""The log directory of what outlives one test (the session's server): one per xdist worker,
each of which has its own server."""
QUEUE_TABLES = RESULTS / "queue-tables"

# A log larger than this keeps only its end (where a failure usually shows).
MAX_LOG_BYTES = 256 * 1024
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_MAX_SLUG = 120

_current: str | None = None


def slug(nodeid: str) -> str:
    """A file name for `nodeid`: safe characters only, bounded, still unique."""
    text = _UNSAFE.sub("_", nodeid).strip("_")
    if len(text) <= _MAX_SLUG:
        return text
    digest = hashlib.sha256(nodeid.encode()).hexdigest()[:10]
    return f"{text[: _MAX_SLUG - 11]}-{digest}"


def current_test() -> str:
    """The sanitized node id of the test being set up, run or torn down ('session' outside)."""
    return slug(_current) if _current else SESSION


def keep_log(source: Path, name: str | None = None, test: str | None = None) -> None:
    """Copy the log `source` (if it exists) into the log directory of `test` (by default the
    current test's)."""
    if not source.is_file():
        return
    target = LOGS / (test or current_test()) / (name or source.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    size = source.stat().st_size
    if size <= MAX_LOG_BYTES:
        shutil.copyfile(source, target)
        return
    with source.open("rb") as log, target.open("wb") as kept:
        log.seek(size - MAX_LOG_BYTES)
        log.readline()  # start at a line boundary
        kept.write(f"[first {size - MAX_LOG_BYTES}+ bytes left out]\n".encode())
        shutil.copyfileobj(log, kept)


def keep_logs_under(directory: Path) -> None:
    """Copy every *.log below `directory`, keeping their relative paths."""
    for source in sorted(directory.rglob("*.log")):
        keep_log(source, str(source.relative_to(directory)))


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    # Leftovers from an earlier run would be uploaded and scanned as this run's. Under xdist
    # the controller clears them before its workers start (they would clear each other's).
    if is_worker(session.config):
        return
    for directory in (LOGS, QUEUE_TABLES):
        shutil.rmtree(directory, ignore_errors=True)
    (RESULTS / "credential-scan.json").unlink(missing_ok=True)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    global _current
    _current = item.nodeid


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None]:
    global _current
    try:
        return (yield)
    finally:
        # funcargs holds every fixture of the test's closure, so a stack's tmp_path too.
        tmp = getattr(item, "funcargs", {}).get("tmp_path")
        if isinstance(tmp, Path) and tmp.is_dir():
            keep_logs_under(tmp)
        _current = None


LAST_TEST = "test_credential_scan.py::test_session_artifacts_hold_no_credentials"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The session's credential scan runs after everything else has left its artifacts."""
    last = [item for item in items if item.nodeid.endswith(LAST_TEST)]
    items[:] = [item for item in items if item not in last] + last
