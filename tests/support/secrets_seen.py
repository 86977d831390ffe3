"""Secret values this test session made up (passwords, API keys), for the credential scan.

Whatever generates a credential for the suite registers it here; the scan then fails on any
artifact that contains one of these exact values, whatever the text around it looks like.

Under pytest-xdist every worker makes up its own values, and one worker's logs can carry
another's: when the controller names a shared directory (`SHARED_ENV`), each process also
appends what it registers to its own file there (the directory is private to this user and
removed at the end of the run), and `seen()` reads them all.
"""

from __future__ import annotations

import os
from pathlib import Path

import asyncpg
from genji_api.auth import tokens

# Shorter values are too likely to occur by chance in unrelated text.
MIN_LENGTH = 8

SHARED_ENV = "GENJI_TEST_SECRETS_DIR"

_seen: set[str] = set()


def _shared() -> Path | None:
    directory = os.environ.get(SHARED_ENV)
    return Path(directory) if directory else None


def register(*values: str | None) -> None:
    fresh = [v for v in values if v and len(v) >= MIN_LENGTH and v not in _seen]
    _seen.update(fresh)
    shared = _shared()
    if fresh and shared is not None and shared.is_dir():
        path = shared / f"{os.getpid()}.txt"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a") as out:
            out.write("".join(f"{value}\n" for value in fresh))


def seen() -> frozenset[str]:
    values = set(_seen)
    shared = _shared()
    if shared is not None and shared.is_dir():
        for path in shared.glob("*.txt"):
            values.update(line for line in path.read_text().splitlines() if line)
    return frozenset(values)


async def issue_token(
    conn: asyncpg.Connection,
    username: str,
    *,
    superuser: bool = False,
    scopes: frozenset[str] = frozenset(),
) -> str:
    """The API's own key issuing, with the new key registered."""
    key = await tokens.issue_token(conn, username, superuser=superuser, scopes=scopes)
    register(key)
    return key
