"""The credential scan of the whole run's artifacts, once every xdist worker has finished.

Without xdist, `test_session_artifacts_hold_no_credentials` runs after every other test and
sees everything. Under xdist it runs on one worker while the others may still be writing, so
the controller scans again when they are all done, with the secrets every worker registered
(secrets_seen's shared directory), and fails the run on a hit. Its verdict goes to
test-results/credential-scan.json (hits as redacted excerpts), which CI reads with the scan
test's result before it uploads the logs.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile

import pytest

from .artifacts import LOGS, QUEUE_TABLES, RESULTS
from .credential_scan import Hit, scan_tree
from .parallel import is_controller
from .secrets_seen import SHARED_ENV, seen

SHOWN_HITS = 50
VERDICT = RESULTS / "credential-scan.json"


class FinalScan:
    def __init__(self) -> None:
        self.files = 0
        self.known = 0
        self.hits: list[Hit] = []
        self.active = False

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        # Before the workers start (xdist starts them in its own, trylast, sessionstart), so
        # that they inherit the shared directory.
        if not is_controller(session.config):
            return
        os.environ[SHARED_ENV] = tempfile.mkdtemp(prefix="genji-test-secrets-")
        self.active = True

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.active:
            return
        try:
            known = seen()
            files, self.hits = scan_tree([LOGS, QUEUE_TABLES], known)
            self.files, self.known = len(files), len(known)
            clean = bool(known) and not self.hits
            if not clean and session.exitstatus == 0:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
            RESULTS.mkdir(parents=True, exist_ok=True)
            verdict = {"clean": clean, "files": self.files, "hits": [str(h) for h in self.hits]}
            VERDICT.write_text(json.dumps(verdict, indent=1) + "\n")
        finally:
            shutil.rmtree(os.environ.pop(SHARED_ENV), ignore_errors=True)

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.active:
            return
        terminalreporter.section("credential scan of every worker's artifacts")
        if not self.known:
            terminalreporter.write_line("FAILED: the run registered no generated secrets")
        terminalreporter.write_line(f"{len(self.hits)} credential(s) in {self.files} files")
        for hit in self.hits[:SHOWN_HITS]:
            terminalreporter.write_line(f"  {hit}")
