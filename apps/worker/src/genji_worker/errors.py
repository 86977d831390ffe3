"""Error summaries safe to store in queue logs and show to the operator."""

from __future__ import annotations

import re
from typing import Any

# user:password@ in connection strings, and bearer or API-key style secrets.
_SECRETS = re.compile(
    r"(?P<url>://[^:/\s@]+:)[^@\s]+@|(?P<key>(?:authorization|x-api-key|password|token)[\"']?\s*[:=]\s*)\S+",
    re.IGNORECASE,
)
MAX_MESSAGE = 300


def redact(text: str) -> str:
    def hide(match: re.Match[str]) -> str:
        if match.group("url"):
            return f"{match.group('url')}***@"
        return f"{match.group('key')}***"

    return _SECRETS.sub(hide, text)


def error_record(kind: str, message: str) -> dict[str, Any]:
    """The traceback JSON our SQL functions read: exception_type and exception_message."""
    return {"exception_type": kind[:100], "exception_message": redact(message)[:MAX_MESSAGE]}


def describe(error: BaseException) -> dict[str, Any]:
    return error_record(type(error).__name__, str(error) or type(error).__name__)
