"""Screens a JSON request body before Litestar decodes it into the route's type.

Every problem is a 400 with the legacy error body that names it: an empty body, a body that is
not JSON, a body nested deeper than the queue accepts in a payload (the decoder recurses, so a
deep enough body would otherwise exhaust the stack), and a string holding NUL, which PostgreSQL
stores in neither text nor jsonb. Nothing of such a request reaches a service.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
from litestar import Request

from genji_api.errors import BadRequestError

# The queue refuses payloads nested more than 64 levels deep (payload_plain_json_problem).
MAX_BODY_DEPTH = 64

# A JSON string, or one bracket outside any string.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_OPENING = frozenset({b"[", b"{"})
_CLOSING = frozenset({b"]", b"}"})


def nested_too_deep(body: bytes, limit: int = MAX_BODY_DEPTH) -> bool:
    """True when more than `limit` arrays and objects nest inside each other; no recursion."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth = 0
    for match in _TOKENS.finditer(body):
        token = match.group()
        if token in _OPENING:
            depth += 1
            if depth > limit:
                return True
        elif token in _CLOSING:
            depth -= 1
    return False


def holds_nul(value: Any) -> bool:
    """True when any string of the decoded value, key or member, holds U+0000."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _takes_json_body(request: Request[Any, Any, Any]) -> tuple[bool, bool]:
    """Whether the route reads a body, and whether it may be left out."""
    data = request.route_handler.parsed_fn_signature.parameters.get("data")
    if data is None:
        return False, True
    return True, data.is_optional or data.has_default


async def screen_json_body(request: Request[Any, Any, Any]) -> None:
    """The app's before-request hook: runs after authentication and guards, before decoding."""
    takes_body, optional = _takes_json_body(request)
    if not takes_body:
        return
    body = await request.body()
    if not body.strip():
        if optional:
            return
        raise BadRequestError("request body is empty")
    if nested_too_deep(body):
        raise BadRequestError(f"request body is nested more than {MAX_BODY_DEPTH} levels deep")
    try:
        value = msgspec.json.decode(body)
    except msgspec.DecodeError as error:
        raise BadRequestError(f"request body is not valid JSON: {error}") from None
    if holds_nul(value):
        raise BadRequestError(
            "request body holds a NUL character (\\u0000), which the database cannot store"
        )
