"""The match rule: code, time (exact float equality) and name, each judged on its own."""

from __future__ import annotations

import pytest
from genji_api.ocr import ocr_matches
from genji_sdk.payloads.completions import ExtractedResult

NAMES = ["NEBULA", "NEBULA#1234"]


def read(name: str | None, time: float | None, code: str | None) -> ExtractedResult:
    return ExtractedResult(name=name, time=time, code=code)


@pytest.mark.parametrize(
    ("extracted", "expected"),
    [
        pytest.param(read("NEBULA", 12.34, "ABC12"), (True, True, True), id="all-match"),
        pytest.param(read("NEBULA#1234", 12.34, "ABC12"), (True, True, True), id="any-name"),
        pytest.param(read("NEBULA", 12.34, "ABC13"), (False, True, True), id="code-differs"),
        pytest.param(read("NEBULA", 12.35, "ABC12"), (True, False, True), id="time-differs"),
        # Exact float equality: no rounding tolerance.
        pytest.param(
            read("NEBULA", 12.340000001, "ABC12"), (True, False, True), id="time-near-miss"
        ),
        pytest.param(read("OTHER", 12.34, "ABC12"), (True, True, False), id="name-differs"),
        # Names are compared exactly; the caller upper-cases them.
        pytest.param(read("nebula", 12.34, "ABC12"), (True, True, False), id="name-case"),
        pytest.param(read(None, None, None), (False, False, False), id="nothing-read"),
        pytest.param(read("OTHER", 1.0, "ZZZ"), (False, False, False), id="nothing-matches"),
    ],
)
def test_ocr_matches(extracted: ExtractedResult, expected: tuple[bool, bool, bool]) -> None:
    assert ocr_matches(extracted, code="ABC12", time=12.34, names=NAMES) == expected
