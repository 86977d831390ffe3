"""HTTP client for the OCR service's `POST /extract`.

Every call is bounded: httpx enforces the connect and read timeouts, and an asyncio timeout
caps the whole exchange (connect, send, wait, read the body). Any failure surfaces as
`OcrUnavailableError`, so callers handle one exception type.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from types import TracebackType
from typing import Self

import httpx
import msgspec
from genji_sdk.payloads.completions import ExtractedResult

from genji_api.ocr.errors import OcrUnavailableError

DEFAULT_CONNECT_TIMEOUT = 2.0
DEFAULT_READ_TIMEOUT = 10.0
DEFAULT_TOTAL_TIMEOUT = 15.0


class _ExtractRequest(msgspec.Struct, frozen=True, kw_only=True):
    image_url: str
    code: str
    time: float
    names: list[str]


class _ExtractResponse(msgspec.Struct, frozen=True, kw_only=True):
    extracted: ExtractedResult


_decoder = msgspec.json.Decoder(_ExtractResponse)


class OcrClient:
    """An async context manager owning one HTTP connection pool to the OCR service.

    Open it for one verification and close it afterwards (`async with OcrClient(url) as ocr`).
    Never call it while a database transaction is open: the call may take up to the total
    timeout, and holding a transaction (and its locks) that long would stall other writers.
    Environment proxy settings are ignored: the OCR service is an internal host.
    """

    def __init__(
        self,
        base_url: str,
        *,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        read_timeout: float = DEFAULT_READ_TIMEOUT,
        total_timeout: float = DEFAULT_TOTAL_TIMEOUT,
    ) -> None:
        self._base_url = base_url
        self._timeout = httpx.Timeout(total_timeout, connect=connect_timeout, read=read_timeout)
        self._total_timeout = total_timeout
        self._http: httpx.AsyncClient | None = None

    async def __aenter__(self) -> Self:
        if self._http is not None:
            raise RuntimeError("OcrClient is already open")
        self._http = httpx.AsyncClient(
            base_url=self._base_url, timeout=self._timeout, trust_env=False
        )
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        http, self._http = self._http, None
        if http is not None:
            await http.aclose()

    async def extract(
        self, image_url: str, code: str, time: float, names: Sequence[str]
    ) -> ExtractedResult:
        """Ask the OCR service what the screenshot at `image_url` shows.

        `names` are the user's names, upper-cased, as the legacy service sent them.
        """
        if self._http is None:
            raise RuntimeError("OcrClient is used outside `async with`")
        body = msgspec.json.encode(
            _ExtractRequest(image_url=image_url, code=code, time=time, names=list(names))
        )
        try:
            async with asyncio.timeout(self._total_timeout):
                response = await self._http.post(
                    "/extract", content=body, headers={"content-type": "application/json"}
                )
        except (TimeoutError, httpx.TimeoutException):
            raise OcrUnavailableError("timeout", "no answer in time") from None
        except httpx.HTTPError as exc:
            # Only the exception type: httpx messages may quote the request.
            raise OcrUnavailableError("transport", type(exc).__name__) from None
        if not response.is_success:
            raise OcrUnavailableError("status", f"HTTP {response.status_code}")
        try:
            return _decoder.decode(response.content).extracted
        except msgspec.DecodeError:
            raise OcrUnavailableError("decode", "the answer is not an OCR result") from None
