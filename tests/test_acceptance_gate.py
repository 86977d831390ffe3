"""The acceptance gate fails a run that lacks a passing test for a required ID."""

import subprocess
import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent


def _run_gate(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(source)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "acceptance",
            "--acceptance-gate=full",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(TESTS_DIR), "PATH": "/usr/bin:/bin"},
    )


@pytest.mark.queue
def test_gate_fails_on_missing_skipped_and_xfailed_ids(tmp_path: Path) -> None:
    result = _run_gate(
        tmp_path,
        "import pytest\n"
        "def test_q01_passes(): pass\n"
        "@pytest.mark.skip(reason='x')\ndef test_q02_skipped(): pass\n"
        "@pytest.mark.xfail(reason='x')\ndef test_q15_xfails(): assert False\n",
    )
    assert result.returncode != 0
    assert "Q01: passed" in result.stdout
    assert "Q02: a test was skipped" in result.stdout
    assert "Q15: a test was xfailed" in result.stdout
    assert "Q03: no passing test" in result.stdout


@pytest.mark.queue
def test_gate_fails_when_nothing_is_collected(tmp_path: Path) -> None:
    result = _run_gate(tmp_path, "")
    assert result.returncode != 0
    assert "no tests were collected" in result.stdout
