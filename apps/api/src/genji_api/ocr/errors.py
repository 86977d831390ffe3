"""The single error the OCR client raises."""

from __future__ import annotations

from typing import Literal

OcrFailure = Literal["timeout", "transport", "status", "decode"]


class OcrUnavailableError(RuntimeError):
    """The OCR service gave no usable answer.

    The message names only the kind of failure (and the HTTP status or exception type); it
    never carries the screenshot URL, its query string or any header.
    """

    def __init__(self, kind: OcrFailure, detail: str) -> None:
        super().__init__(f"OCR service unavailable ({kind}): {detail}")
        self.kind: OcrFailure = kind
