"""The last step before any event leaves the process for Sentry (`before_send`).

It drops what must never be reported: request headers, cookies, bodies and query strings, the
user, local variables of stack frames, and every field whose name looks like a credential, at
any depth; what remains has connection-string passwords, URL user info (a DSN's key) and
`token=...`-style secrets redacted from its strings.
"""

from __future__ import annotations

import re
from typing import Any, cast

from sentry_sdk.types import Event, Hint

from genji_worker.errors import redact

CREDENTIAL_NAME = re.compile(
    r"api[-_ ]?key|token|passw|secret|authori[sz]ation|cookie|session|dsn|credential",
    re.IGNORECASE,
)
_URL_USERINFO = re.compile(r"://[^\s/@]+@")
# Of a request, only these say where it went without saying who sent it or what it carried.
_REQUEST_KEEPS = ("method", "url")
REMOVED = "[removed]"


def _text(value: str) -> str:
    return _URL_USERINFO.sub("://***@", redact(value))


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, dict):
        return {
            key: _clean(item)
            for key, item in value.items()
            if not (isinstance(key, str) and CREDENTIAL_NAME.search(key))
        }
    if isinstance(value, list | tuple):
        return [_clean(item) for item in value]
    return value


def _frames(container: Any) -> None:
    """Drop local variables from every stack trace of the event."""
    values = container.get("values", []) if isinstance(container, dict) else []
    for entry in values:
        stacktrace = entry.get("stacktrace") if isinstance(entry, dict) else None
        for frame in (stacktrace or {}).get("frames", []):
            frame.pop("vars", None)


def scrub_event(event: Event, hint: Hint) -> Event | None:
    data = cast(dict[str, Any], event)
    request = data.get("request")
    if isinstance(request, dict):
        kept = {key: request[key] for key in _REQUEST_KEEPS if key in request}
        if isinstance(kept.get("url"), str):
            kept["url"] = kept["url"].split("?", 1)[0]
        data["request"] = kept
    data.pop("user", None)
    for name in ("exception", "threads"):
        _frames(data.get(name))
    return cast(Event, _clean(data))
