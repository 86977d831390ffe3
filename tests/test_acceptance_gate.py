"""The acceptance gate fails a run that lacks a passing test for a required ID."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.support import acceptance

REPOSITORY = Path(__file__).resolve().parents[1]


def _run_gate(tmp_path: Path, source: str, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(source)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.support.acceptance",
            "--acceptance-gate=full",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            *options,
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPOSITORY), "PATH": "/usr/bin:/bin"},
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


@pytest.mark.queue
def test_junit_carries_each_tests_ids_and_the_summary_has_a_row_per_required_id(
    tmp_path: Path,
) -> None:
    result = _run_gate(
        tmp_path,
        "import pytest\n"
        "def test_q01_and_q02_pass(): pass\n"
        "@pytest.mark.parametrize('case', ['q03-first', 'second'])\n"
        "def test_param(case): pass\n"
        "def test_q04_fails(): assert False\n"
        "@pytest.mark.skip(reason='x')\ndef test_q05_skipped(): pass\n"
        "def test_without_an_id(): pass\n",
        f"--junitxml={tmp_path / 'junit.xml'}",
    )
    assert result.returncode != 0

    properties = {
        case.get("name"): [p.get("value") for p in case.iter("property")]
        for case in ET.parse(tmp_path / "junit.xml").iter("testcase")
    }
    assert properties["test_q01_and_q02_pass"] == ["Q01", "Q02"]
    assert properties["test_param[q03-first]"] == ["Q03"]
    assert properties["test_param[second]"] == []
    assert properties["test_without_an_id"] == []

    report = json.loads((tmp_path / "test-results" / "acceptance.json").read_text())
    rows = {row["id"]: row for row in report["ids"]}
    assert report["gate"] == "FAILED"
    assert sorted(rows) == sorted(acceptance.REQUIRED)
    assert rows["Q01"]["verdict"] == "proven"
    assert rows["Q01"]["tests"] == {"test_sample.py::test_q01_and_q02_pass": "passed"}
    assert rows["Q03"]["tests"] == {"test_sample.py::test_param[q03-first]": "passed"}
    assert rows["Q04"]["verdict"] == "not proven: 1 failed, no passing test"
    assert rows["Q04"]["failed"] == 1
    assert rows["Q05"]["tests"] == {"test_sample.py::test_q05_skipped": "skipped"}
    assert rows["Q05"]["verdict"] == "not proven: 1 skipped, no passing test"
    assert rows["Q06"]["verdict"] == "not proven: no passing test" and rows["Q06"]["tests"] == {}

    summary = (tmp_path / "test-results" / "acceptance.md").read_text()
    assert summary.startswith("## Acceptance gate (full): FAILED")
    table = [line for line in summary.splitlines() if line.startswith("| Q")]
    assert [line.split(" | ")[0] for line in table] == [
        f"| {i}" for i in sorted(acceptance.REQUIRED)
    ]
    assert (
        "| Q01 | proven | 1 | 0 | 0 | 0 | `test_sample.py::test_q01_and_q02_pass` passed |" in table
    )
    assert "- Q04: a test was failed" in summary


@pytest.mark.queue
def test_a_test_failing_only_at_teardown_counts_as_failed(tmp_path: Path) -> None:
    _run_gate(
        tmp_path,
        "import pytest\n"
        "@pytest.fixture\ndef broken():\n    yield\n    raise RuntimeError('teardown')\n"
        "def test_q01_passes_then_its_teardown_fails(broken): pass\n",
    )
    report = json.loads((tmp_path / "test-results" / "acceptance.json").read_text())
    q01 = next(row for row in report["ids"] if row["id"] == "Q01")
    assert q01["tests"] == {"test_sample.py::test_q01_passes_then_its_teardown_fails": "failed"}
    assert q01["verdict"] == "not proven: 1 failed, no passing test"


# Under pytest-xdist the workers collect and run the tests, and only the controller sees every
# report: the gate, its summary and its reports must come from there, once.
XDIST = ("-n", "2", "--dist", "loadgroup")


@pytest.mark.queue
def test_under_xdist_the_controller_gates_every_workers_reports(tmp_path: Path) -> None:
    result = _run_gate(
        tmp_path,
        "import pytest\n"
        "def test_q01_and_q02_pass(): pass\n"
        "@pytest.mark.xdist_group('together')\ndef test_q03_passes(): pass\n"
        "@pytest.mark.skip(reason='x')\ndef test_q05_skipped(): pass\n"
        "@pytest.mark.xfail(reason='x')\ndef test_q15_xfails(): assert False\n"
        "def test_q04_fails(): assert False\n",
        *XDIST,
        f"--junitxml={tmp_path / 'junit.xml'}",
    )
    assert result.returncode != 0
    assert result.stdout.count("acceptance gate (full)") == 1
    assert "Q01: passed" in result.stdout and "Q03: passed" in result.stdout
    assert "Q05: a test was skipped" in result.stdout
    assert "Q15: a test was xfailed" in result.stdout
    assert "Q04: a test was failed" in result.stdout
    assert "Q06: no passing test" in result.stdout

    properties = {
        case.get("name"): [p.get("value") for p in case.iter("property")]
        for case in ET.parse(tmp_path / "junit.xml").iter("testcase")
    }
    assert properties["test_q01_and_q02_pass"] == ["Q01", "Q02"]
    assert properties["test_q03_passes"] == ["Q03"]

    report = json.loads((tmp_path / "test-results" / "acceptance.json").read_text())
    rows = {row["id"]: row for row in report["ids"]}
    assert report["gate"] == "FAILED"
    assert rows["Q02"]["verdict"] == "proven"
    assert rows["Q04"]["verdict"] == "not proven: 1 failed, no passing test"
    assert rows["Q05"]["verdict"] == "not proven: 1 skipped, no passing test"


@pytest.mark.queue
def test_under_xdist_a_run_proving_every_id_passes_the_gate(tmp_path: Path) -> None:
    tests = "".join(f"def test_{i.lower()}(): pass\n" for i in sorted(acceptance.REQUIRED))
    result = _run_gate(tmp_path, tests, *XDIST)
    assert result.returncode == 0, result.stdout
    assert "gate: passed" in result.stdout
    report = json.loads((tmp_path / "test-results" / "acceptance.json").read_text())
    assert report["gate"] == "passed"
    assert {row["verdict"] for row in report["ids"]} == {"proven"}


@pytest.mark.queue
def test_under_xdist_nothing_collected_fails_the_gate(tmp_path: Path) -> None:
    result = _run_gate(tmp_path, "def helper(): pass\n", *XDIST)
    assert result.returncode != 0
    assert "no tests were collected" in result.stdout
