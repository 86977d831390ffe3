"""Error summaries safe to store in queue logs and show to the operator."""

from __future__ import annotations

import re

from genji_queue.types import ErrorRecord

# user:password@ in connection strings (up to the authority's last @), and header or
# key=value secrets: a quoted value whole, else up to two words ("Bearer <token>").
_SECRETS = re.compile(
    r"(?P<url>://[^:/\s@]+:)[^\s/]*@"
    r"|(?P<key>(?:authorization|x-api-key|password|token)[\"']?\s*[:=]\s*)"
    r"(?:\"[^\"]*\"|'[^']*'|[^\s,;\"'}]+(?:[ \t]+[^\s,;\"'}]+)?)",
    re.IGNORECASE,
)


def redact(text: str) -> str:
    def hide(match: re.Match[str]) -> str:
        if match.group("url"):
            return f"{match.group('url')}***@"
        return f"{match.group('key')}***"

    return _SECRETS.sub(hide, text)


def error_record(kind: str, message: str) -> ErrorRecord:
    """The failure record our SQL functions store (they bound its size): secrets redacted."""
    return {"exception_type": kind, "exception_message": redact(message)}


def describe(error: BaseException) -> ErrorRecord:
    return error_record(type(error).__name__, str(error) or type(error).__name__)
