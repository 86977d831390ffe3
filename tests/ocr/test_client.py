"""`OcrClient` against a real HTTP server: answers, failures and time bounds."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from genji_api.ocr import OcrClient, OcrUnavailableError, ocr_matches
from genji_devstack.fake_ocr import FakeOcr

NAMES = ["NEBULA", "NEBULA#1234"]
SECRET = "sig=do-not-log-me"


def screenshot(kind: str) -> str:
    return f"https://cdn.example.test/screens/{kind}-1.png?{SECRET}"


async def test_match_echoes_the_submission(fake_ocr: FakeOcr) -> None:
    async with OcrClient(fake_ocr.url) as ocr:
        extracted = await ocr.extract(screenshot("ocr-match"), "ABC12", 12.34, NAMES)
    assert (extracted.code, extracted.time, extracted.name) == ("ABC12", 12.34, "NEBULA")
    assert extracted.sources == {"fake": True}
    assert ocr_matches(extracted, code="ABC12", time=12.34, names=NAMES) == (True, True, True)


async def test_mismatch_reads_another_time(fake_ocr: FakeOcr) -> None:
    async with OcrClient(fake_ocr.url) as ocr:
        extracted = await ocr.extract(screenshot("ocr-mismatch"), "ABC12", 12.34, NAMES)
    assert (extracted.code, extracted.time, extracted.name) == ("ABC12", 13.34, "NEBULA")
    assert ocr_matches(extracted, code="ABC12", time=12.34, names=NAMES) == (True, False, True)


def assert_redacted(error: OcrUnavailableError) -> None:
    text = str(error)
    assert SECRET not in text
    assert "cdn.example.test" not in text


@pytest.mark.parametrize(
    ("kind", "failure", "detail"),
    [
        pytest.param("ocr-error", "status", "HTTP 500", id="http-500"),
        pytest.param("ocr-undecodable", "decode", "not an OCR result", id="undecodable"),
    ],
)
async def test_bad_answers_raise_ocr_unavailable(
    fake_ocr: FakeOcr, kind: str, failure: str, detail: str
) -> None:
    async with OcrClient(fake_ocr.url) as ocr:
        with pytest.raises(OcrUnavailableError) as caught:
            await ocr.extract(screenshot(kind), "ABC12", 12.34, NAMES)
    assert caught.value.kind == failure
    assert detail in str(caught.value)
    assert_redacted(caught.value)


async def test_slow_answer_is_cut_by_the_total_timeout(fake_ocr: FakeOcr) -> None:
    # The read timeout alone (10 s) would wait far longer than the total bound.
    async with OcrClient(fake_ocr.url, total_timeout=0.5) as ocr:
        started = time.monotonic()
        with pytest.raises(OcrUnavailableError) as caught:
            await ocr.extract(screenshot("ocr-slow"), "ABC12", 12.34, NAMES)
        elapsed = time.monotonic() - started
    assert caught.value.kind == "timeout"
    assert 0.4 < elapsed < 2.0
    assert_redacted(caught.value)


async def test_slow_answer_is_cut_by_the_read_timeout(fake_ocr: FakeOcr) -> None:
    async with OcrClient(fake_ocr.url, read_timeout=0.5) as ocr:
        started = time.monotonic()
        with pytest.raises(OcrUnavailableError) as caught:
            await ocr.extract(screenshot("ocr-slow"), "ABC12", 12.34, NAMES)
        elapsed = time.monotonic() - started
    assert caught.value.kind == "timeout"
    assert 0.4 < elapsed < 2.0


@pytest.fixture
def refusing_port() -> Iterator[int]:
    # Bound but never listening: connections are refused, and no one else can take the port.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


async def test_connection_refused_raises_ocr_unavailable(refusing_port: int) -> None:
    async with OcrClient(f"http://127.0.0.1:{refusing_port}") as ocr:
        with pytest.raises(OcrUnavailableError) as caught:
            await ocr.extract(screenshot("ocr-match"), "ABC12", 12.34, NAMES)
    assert caught.value.kind == "transport"
    assert "ConnectError" in str(caught.value)
    assert_redacted(caught.value)


async def test_extract_outside_the_context_is_refused(fake_ocr: FakeOcr) -> None:
    ocr = OcrClient(fake_ocr.url)
    with pytest.raises(RuntimeError, match="outside"):
        await ocr.extract(screenshot("ocr-match"), "ABC12", 12.34, NAMES)
    assert fake_ocr.request_counts() == {}
