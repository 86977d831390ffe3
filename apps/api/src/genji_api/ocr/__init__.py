"""The OCR service boundary used by completion auto-verification.

`OcrClient` reads a screenshot through the OCR service, `ocr_matches` compares what it read
with the submission, and `OcrUnavailableError` is the one error the client raises.
"""

from genji_api.ocr.client import OcrClient
from genji_api.ocr.errors import OcrUnavailableError
from genji_api.ocr.matching import ocr_matches

__all__ = ("OcrClient", "OcrUnavailableError", "ocr_matches")
