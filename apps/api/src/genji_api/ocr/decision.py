"""One automatic-verification attempt: ask the OCR service, then apply the match rule.

The outcome is what the OCR jobs record in their decision tables. This runs outside every
database transaction: the call may take up to the settings' OCR timeout.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import msgspec
from genji_sdk.payloads.completions import ExtractedResult

from genji_api.ocr.client import DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT, OcrClient
from genji_api.ocr.errors import OcrUnavailableError
from genji_api.ocr.matching import ocr_matches
from genji_api.settings import ApiSettings

log = logging.getLogger("genji.api")

OcrOutcome = Literal["match", "mismatch", "error"]


@dataclass(frozen=True)
class OcrDecision:
    outcome: OcrOutcome
    extracted: ExtractedResult | None
    """None when the OCR service gave no usable answer (outcome 'error')."""
    code_match: bool = False
    time_match: bool = False
    user_match: bool = False

    def extracted_json(self) -> dict[str, Any] | None:
        return None if self.extracted is None else msgspec.to_builtins(self.extracted)


def ocr_client(settings: ApiSettings) -> OcrClient:
    total = settings.ocr_timeout_seconds
    return OcrClient(
        settings.ocr_url,
        connect_timeout=min(DEFAULT_CONNECT_TIMEOUT, total),
        read_timeout=min(DEFAULT_READ_TIMEOUT, total),
        total_timeout=total,
    )


async def decide_by_ocr(
    settings: ApiSettings, *, screenshot: str, code: str, time: float, names: Sequence[str]
) -> OcrDecision:
    """Match, mismatch, or error when the OCR service is unavailable (never raises for that)."""
    try:
        async with ocr_client(settings) as ocr:
            extracted = await ocr.extract(screenshot, code, time, names)
    except OcrUnavailableError as error:
        # The message names the failure kind only, never the screenshot URL.
        log.warning("OCR unavailable for a %s submission: %s", code, error)
        return OcrDecision(outcome="error", extracted=None)
    code_match, time_match, user_match = ocr_matches(extracted, code=code, time=time, names=names)
    matched = code_match and time_match and user_match
    return OcrDecision(
        outcome="match" if matched else "mismatch",
        extracted=extracted,
        code_match=code_match,
        time_match=time_match,
        user_match=user_match,
    )
