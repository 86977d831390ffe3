"""The credential scan: its detector on planted secrets, then the session's own artifacts.

`test_session_artifacts_hold_no_credentials` is moved after every other test of the run
(artifacts.pytest_collection_modifyitems), so it sees every log and queue table capture the
session left under test-results/.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path

import pytest

from tests.support.artifacts import LOGS, QUEUE_TABLES, SESSION, keep_log
from tests.support.credential_scan import scan_tree
from tests.support.secrets_seen import register, seen
from tests.support.testdb import Server

API_KEY = "gjs_" + "Zq3" * 14 + "x"
PLANTED = {
    "api key": f"INFO request from key {API_KEY} accepted",
    "password in a DSN": "connecting to postgresql://genjishimada:s3cr3t-Value@127.0.0.1:5432/db",
    "password": "psql: password=hunter2-long failed",
    "secret header": "headers: {'X-API-KEY': 'abcdefgh12345678'}",
    "bearer token": "sent Authorization: Bearer eyJhbGciOi.payload.sig",
}
# What the project's redaction writes, and ordinary words near the keywords.
CLEAN = (
    "connecting to postgresql://genjishimada:***@127.0.0.1:5432/db\n"
    "error: password=*** rejected; authorization: ***\n"
    "QUEUE_DATABASE_PASSWORD must be set\n"
    "the X-API-KEY header is missing\n"
)


@pytest.fixture
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Outside tmp_path, whose *.log files become this test's artifacts."""
    return tmp_path_factory.mktemp("planted")


def _plant(root: Path, name: str, text: str) -> Path:
    path = root / "logs" / "tests_x.py__test_y" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("starting\n" + text + "\n")
    return path


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_a_planted_credential_in_a_log_is_found_by_kind_and_line(planted: Path, kind: str) -> None:
    path = _plant(planted, "worker-0.log", PLANTED[kind])
    files, hits = scan_tree([planted / "logs"])
    assert files == [path]
    assert [(hit.path, hit.line) for hit in hits if hit.kind == kind] == [(path, 2)]


def test_a_known_secret_in_a_queue_payload_is_found_without_being_printed(
    planted: Path,
) -> None:
    password = secrets.token_urlsafe(18)
    register(password)
    row = {"id": 7, "entrypoint": "api.xp.grant", "payload": {"note": f"pw {password} here"}}
    capture = planted / "queue-tables" / "tests_x.py__test_y--genji_test.txt"
    capture.parent.mkdir(parents=True)
    capture.write_text("jobs\t{}\npgqueuer\t" + json.dumps(row) + "\n")
    _, hits = scan_tree([planted / "logs", planted / "queue-tables"], seen())
    assert [(hit.path, hit.line, hit.kind) for hit in hits] == [(capture, 2, "known secret value")]
    assert password not in str(hits[0])
    assert "chars hidden" in str(hits[0])


def test_no_shaped_secret_is_printed_in_a_hit(planted: Path) -> None:
    for kind, text in PLANTED.items():
        _plant(planted, f"{kind.replace(' ', '-')}.log", text)
    _, hits = scan_tree([planted / "logs"])
    shown = "\n".join(map(str, hits))
    for secret in (API_KEY, "s3cr3t-Value", "hunter2-long", "abcdefgh12345678", "eyJhbGciOi"):
        assert secret not in shown


def test_redacted_values_and_plain_words_are_not_hits(planted: Path) -> None:
    _plant(planted, "api.log", CLEAN)
    _, hits = scan_tree([planted / "logs"], seen())
    assert hits == []


def test_session_artifacts_hold_no_credentials(pg_server: Server) -> None:
    """Every log and queue capture this run left (whatever subset of tests ran), and the
    session server's log so far (its teardown copies it again, after this scan)."""
    if pg_server.cluster is not None:
        keep_log(pg_server.cluster.logfile, "server.log", test=SESSION)
    known = seen()
    assert known, "the session registered no generated secrets"
    files, hits = scan_tree([LOGS, QUEUE_TABLES], known)
    listing = "\n".join(map(str, hits[:50]))
    assert not hits, f"{len(hits)} credential(s) in {len(files)} artifact files:\n{listing}"


def test_a_very_long_line_is_scanned_in_linear_time(planted: Path) -> None:
    # Captured payloads can hold one huge string with no separator in it.
    _plant(planted, "payload.log", "password" + "a" * 300_000 + " password=" + "b" * 300_000)
    started = time.monotonic()
    _, hits = scan_tree([planted / "logs"])
    assert time.monotonic() - started < 5
    assert [hit.kind for hit in hits] == ["password"]
