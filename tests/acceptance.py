"""Acceptance IDs the suite must prove, and the gate that enforces them."""

from __future__ import annotations

import re
from collections import defaultdict

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


class AcceptanceGate:
    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.outcomes: dict[str, set[str]] = defaultdict(set)
        self.problems: list[str] = []

    def required(self) -> frozenset[str]:
        return REQUIRED - FAULT_ONLY if self.mode == "fast" else REQUIRED

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        ids = {f"Q{m}" for m in _ID.findall(report.nodeid)}
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
        config.pluginmanager.register(AcceptanceGate(mode), "acceptance-gate")
