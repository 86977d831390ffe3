"""Acceptance IDs the suite must prove, and the gate that enforces them."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

# Every ID here needs at least one passing test whose name or parameter ID carries it.
# IDs proven only by process or cluster fault injection (absent from `just test-queue-fast`).
FAULT_ONLY = frozenset({"Q03", "Q04", "Q05", "Q06", "Q07", "Q08", "Q13", "Q17", "Q18", "Q19"})
REQUIRED = (
    frozenset(
        {"Q01", "Q02", "Q09", "Q10", "Q11", "Q12", "Q14", "Q15", "Q16"}
        | {"Q20", "Q21", "Q22", "Q23", "Q24", "Q25", "Q26", "Q27", "Q28"}
    )
    | FAULT_ONLY
)

_ID = re.compile(r"(?<![a-z0-9])q(0[1-9]|1[0-9]|2[0-8])(?![0-9])", re.IGNORECASE)
# Outcomes from best to worst.
_SEVERITY = {"passed": 0, "skipped": 1, "xfailed": 2, "failed": 3}
# Tests named per ID in the Markdown summary (all of them are in the JSON one).
SHOWN_TESTS = 5
JUNIT_PROPERTY = "acceptance_id"


def acceptance_ids(nodeid: str) -> list[str]:
    return sorted({f"Q{m}" for m in _ID.findall(nodeid)})


class JunitIds:
    """Where the tests are collected (an xdist worker, or the one process without xdist)."""

    def pytest_itemcollected(self, item: pytest.Item) -> None:
        # pytest's junitxml writes these as the test case's <properties>; under xdist they
        # travel to the controller's junitxml with each report.
        for acceptance_id in acceptance_ids(item.nodeid):
            item.user_properties.append((JUNIT_PROPERTY, acceptance_id))


class AcceptanceGate:
    """Where every report arrives: the xdist controller, or the one process without xdist.
    Workers see only their share of the tests, so they hold no gate."""

    def __init__(self, mode: str, report_dir: Path) -> None:
        self.mode = mode
        self.report_dir = report_dir
        self.outcomes: dict[str, set[str]] = defaultdict(set)
        self.tests: dict[str, dict[str, str]] = defaultdict(dict)
        self.problems: list[str] = []

    def required(self) -> frozenset[str]:
        return REQUIRED - FAULT_ONLY if self.mode == "fast" else REQUIRED

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        ids = acceptance_ids(report.nodeid)
        if not ids:
            return
        if hasattr(report, "wasxfail"):
            outcome = "xfailed"
        elif report.skipped:
            outcome = "skipped"
        elif report.failed:
            outcome = "failed"
        elif report.when == "call":
            outcome = "passed"
        else:
            return
        for acceptance_id in ids:
            self.outcomes[acceptance_id].add(outcome)
            # A later phase's report is a failure (or skip) after the call: it wins.
            self.tests[acceptance_id][report.nodeid] = outcome

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if session.testscollected == 0:
            self.problems.append("no tests were collected")
        for acceptance_id in sorted(self.required()):
            seen = self.outcomes.get(acceptance_id, set())
            if "passed" not in seen:
                self.problems.append(f"{acceptance_id}: no passing test")
            for bad in ("skipped", "xfailed", "failed"):
                if bad in seen:
                    self.problems.append(f"{acceptance_id}: a test was {bad}")
        if self.problems and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        self.write_reports()

    def verdicts(self) -> list[dict[str, object]]:
        rows: list[dict[str, object]] = []
        for acceptance_id in sorted(self.required()):
            tests = dict(sorted(self.tests.get(acceptance_id, {}).items()))
            counts = {name: 0 for name in _SEVERITY}
            for outcome in tests.values():
                counts[outcome] += 1
            reasons = [f"{counts[b]} {b}" for b in ("skipped", "xfailed", "failed") if counts[b]]
            if not counts["passed"]:
                reasons.append("no passing test")
            verdict = "not proven: " + ", ".join(reasons) if reasons else "proven"
            rows.append({"id": acceptance_id, "verdict": verdict, **counts, "tests": tests})
        return rows

    def write_reports(self) -> None:
        """test-results/acceptance.json (every test per ID) and acceptance.md (for people)."""
        rows = self.verdicts()
        gate = "FAILED" if self.problems else "passed"
        self.report_dir.mkdir(parents=True, exist_ok=True)
        document = {"mode": self.mode, "gate": gate, "problems": self.problems, "ids": rows}
        (self.report_dir / "acceptance.json").write_text(json.dumps(document, indent=1) + "\n")
        lines = [
            f"## Acceptance gate ({self.mode}): {gate}",
            "",
            "| ID | verdict | passed | skipped | xfailed | failed | tests |",
            "| --- | --- | ---: | ---: | ---: | ---: | --- |",
        ]
        for row in rows:
            tests: dict[str, str] = row["tests"]  # type: ignore[assignment]
            # Tests that did not pass first, then as many passing ones as fit.
            ordered = sorted(tests.items(), key=lambda t: -_SEVERITY[t[1]])
            shown = [f"`{nodeid}` {outcome}" for nodeid, outcome in ordered[:SHOWN_TESTS]]
            if len(tests) > SHOWN_TESTS:
                shown.append(f"and {len(tests) - SHOWN_TESTS} more (acceptance.json)")
            counts = " | ".join(str(row[name]) for name in _SEVERITY)
            lines.append(f"| {row['id']} | {row['verdict']} | {counts} | {'<br>'.join(shown)} |")
        if self.problems:
            lines += ["", "Problems:", *(f"- {problem}" for problem in self.problems)]
        (self.report_dir / "acceptance.md").write_text("\n".join(lines) + "\n")

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        terminalreporter.section(f"acceptance gate ({self.mode})")
        for acceptance_id in sorted(self.required()):
            seen = ", ".join(sorted(self.outcomes.get(acceptance_id, set()))) or "missing"
            terminalreporter.write_line(f"{acceptance_id}: {seen}")
        terminalreporter.write_line("gate: " + ("FAILED" if self.problems else "passed"))
        for problem in self.problems:
            terminalreporter.write_line(f"  - {problem}")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--acceptance-gate",
        choices=("off", "fast", "full"),
        default="off",
        help="fail the run unless every required acceptance ID has a passing test",
    )


def pytest_configure(config: pytest.Config) -> None:
    mode = config.getoption("--acceptance-gate")
    if mode != "off":
        config.pluginmanager.register(JunitIds(), "acceptance-junit-ids")
        # An xdist worker (it has workerinput) reports to the controller, which holds the gate.
        if not hasattr(config, "workerinput"):
            report_dir = config.rootpath / "test-results"
            config.pluginmanager.register(AcceptanceGate(mode, report_dir), "acceptance-gate")
