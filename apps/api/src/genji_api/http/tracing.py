"""The tracing metadata a request may hand to the jobs it causes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from genji_sdk import sanitize_trace
from litestar import Request

Trace = Mapping[str, str]


def request_trace(request: Request[Any, Any, Any]) -> dict[str, str]:
    """Only the allow-listed tracing headers; keys, cookies and other headers never pass."""
    return sanitize_trace(dict(request.headers))
