"""The API's error body and the machine-readable codes a client branches on.

The body keeps its legacy fields (`error`, the sentence; `extra`) and adds `code`. Clients
decide on the code and the status, never on the sentence, which may be reworded.
"""

from __future__ import annotations

from typing import Any, Final, Literal, get_args

import msgspec

ErrorCode = Literal[
    "bad_request",
    "unauthorized",
    "forbidden",
    "not_found",
    "conflict",
    "claim_lost",
    "effect_mismatch",
    "payload_too_large",
    "rate_limited",
    "internal",
    "reconciliation_required",
    "unavailable",
]
ERROR_CODES: Final[frozenset[str]] = frozenset(get_args(ErrorCode))

_BY_STATUS: Final[dict[int, ErrorCode]] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    413: "payload_too_large",
    429: "rate_limited",
    502: "unavailable",
    503: "unavailable",
    504: "unavailable",
}


def code_for_status(status: int) -> ErrorCode:
    """The generic code of an error status, for errors that carry no more specific one."""
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    return "internal" if status >= 500 else "bad_request"


class ErrorBody(msgspec.Struct, frozen=True, kw_only=True):
    """The body of every error response."""

    error: str
    extra: Any
    code: ErrorCode
