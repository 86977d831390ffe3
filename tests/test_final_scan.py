"""Under pytest-xdist the controller scans every worker's artifacts once they have all
finished, knowing the secrets each worker made up, and fails the run on a hit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]

CONFTEST = """
from tests.support.artifacts import pytest_sessionstart
from tests.support.final_scan import FinalScan

def pytest_configure(config):
    config.pluginmanager.register(FinalScan(), "final-credential-scan")
"""
# Each test makes up a secret in its worker; one of them writes its own into a log.
SAMPLE = """
import secrets
from tests.support.artifacts import LOGS
from tests.support.secrets_seen import register

def _made_up():
    value = secrets.token_urlsafe(18)
    register(value)
    return value

def test_leaves_its_secret_in_a_log():
    value = _made_up()
    (LOGS / "one").mkdir(parents=True, exist_ok=True)
    (LOGS / "one" / "service.log").write_text(f"started with {value}\\n")

def test_keeps_its_secret():
    _made_up()
"""


def _run(tmp_path: Path, sample: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_sample.py").write_text(sample)
    results = tmp_path / "results"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            "-n",
            "2",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env={
            "PYTHONPATH": str(REPOSITORY),
            "PATH": "/usr/bin:/bin",
            "GENJI_TEST_RESULTS": str(results),
        },
    )
    return result, results


@pytest.mark.queue
def test_under_xdist_a_workers_secret_in_any_log_fails_the_run(tmp_path: Path) -> None:
    result, results = _run(tmp_path, SAMPLE)
    assert result.returncode != 0, result.stdout
    assert "1 credential(s)" in result.stdout
    assert "service.log:1: known secret value" in result.stdout
    verdict = json.loads((results / "credential-scan.json").read_text())
    assert verdict["clean"] is False and len(verdict["hits"]) == 1
    leaked = (results / "logs" / "one" / "service.log").read_text().split()[-1]
    assert leaked not in result.stdout + json.dumps(verdict)


@pytest.mark.queue
def test_under_xdist_a_run_without_leaks_passes_the_final_scan(tmp_path: Path) -> None:
    result, results = _run(tmp_path, SAMPLE.replace("started with {value}", "started"))
    assert result.returncode == 0, result.stdout
    assert "0 credential(s) in 1 files" in result.stdout
    assert json.loads((results / "credential-scan.json").read_text())["clean"] is True
