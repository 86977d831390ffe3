"""The fake OCR service: its request counter, its shutdown and its command line."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
import time
from collections.abc import Callable

import httpx
import pytest
from genji_api.ocr import OcrClient, OcrUnavailableError
from genji_devstack.fake_ocr import FakeOcr

MATCH = "https://cdn.example.test/ocr-match-7.png?sig=a"
OTHER = "https://cdn.example.test/plain.png"


async def served_counts(url: str) -> dict[str, int]:
    async with httpx.AsyncClient(trust_env=False) as http:
        response = await http.get(f"{url}/requests", timeout=5)
    response.raise_for_status()
    counts: dict[str, int] = response.json()
    return counts


async def test_counts_requests_per_image_url(fake_ocr: FakeOcr) -> None:
    assert await served_counts(fake_ocr.url) == {}
    async with OcrClient(fake_ocr.url) as ocr:
        await ocr.extract(MATCH, "ABC12", 1.0, ["A"])
        await ocr.extract(MATCH, "ABC12", 1.0, ["A"])
        # A URL without a mode is answered as a match.
        plain = await ocr.extract(OTHER, "ABC12", 1.0, ["A"])
        with pytest.raises(OcrUnavailableError):
            await ocr.extract("https://cdn.example.test/ocr-error.png", "ABC12", 1.0, ["A"])
    assert (plain.code, plain.time, plain.name) == ("ABC12", 1.0, "A")
    expected = {MATCH: 2, OTHER: 1, "https://cdn.example.test/ocr-error.png": 1}
    assert await served_counts(fake_ocr.url) == expected
    assert fake_ocr.request_counts() == expected


async def test_a_slow_request_blocks_neither_others_nor_shutdown() -> None:
    fake = FakeOcr()
    fake.start()
    try:
        slow = asyncio.create_task(_extract(fake.url, "https://cdn.example.test/ocr-slow.png"))
        await _eventually(
            lambda: fake.request_counts().get("https://cdn.example.test/ocr-slow.png")
        )
        started = time.monotonic()
        await _extract(fake.url, MATCH)
        assert time.monotonic() - started < 2.0
    finally:
        started = time.monotonic()
        await asyncio.to_thread(fake.stop)
        stopped_in = time.monotonic() - started
    assert stopped_in < 2.0
    # Shutdown drops the pending answer; the client sees the service as unavailable.
    with pytest.raises(OcrUnavailableError):
        await asyncio.wait_for(slow, 5)


async def _extract(url: str, image_url: str) -> None:
    async with OcrClient(url) as ocr:
        await ocr.extract(image_url, "ABC12", 1.0, ["A"])


async def _eventually(probe: Callable[[], object], deadline: float = 5.0) -> None:
    end = time.monotonic() + deadline
    while not probe():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the fake to see the request")
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
async def test_command_line_serves_until_signalled(stop_signal: signal.Signals) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "genji_devstack.fake_ocr",
        "--port",
        "0",
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 10)).decode()
        found = re.fullmatch(r"fake OCR listening on (http://127\.0\.0\.1:\d+)\n", line)
        assert found, line
        url = found.group(1)
        async with OcrClient(url) as ocr:
            extracted = await ocr.extract(MATCH, "ABC12", 2.5, ["A"])
        assert (extracted.code, extracted.time, extracted.name) == ("ABC12", 2.5, "A")
        assert await served_counts(url) == {MATCH: 1}
        process.send_signal(stop_signal)
        assert await asyncio.wait_for(process.wait(), 10) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
