"""The auto-verification match rule: what OCR read against what the user submitted."""

from __future__ import annotations

from collections.abc import Collection

from genji_sdk.payloads.completions import ExtractedResult


def ocr_matches(
    extracted: ExtractedResult, *, code: str, time: float, names: Collection[str]
) -> tuple[bool, bool, bool]:
    """Return `(code_match, time_match, user_match)`.

    The time is compared with exact float equality, as the legacy service did. `names` are the
    user's names exactly as sent to the OCR service (upper-cased by the caller); a name the
    OCR service could not read never matches.
    """
    code_match = extracted.code == code
    time_match = extracted.time == time
    user_match = extracted.name in names
    return code_match, time_match, user_match
