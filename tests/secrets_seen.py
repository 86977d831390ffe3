"""Secret values this test session made up (passwords, API keys), for the credential scan.

Whatever generates a credential for the suite registers it here; the scan then fails on any
artifact that contains one of these exact values, whatever the text around it looks like.
"""

from __future__ import annotations

import asyncpg
from genji_api.auth import tokens

# Shorter values are too likely to occur by chance in unrelated text.
MIN_LENGTH = 8

_seen: set[str] = set()


def register(*values: str | None) -> None:
    for value in values:
        if value and len(value) >= MIN_LENGTH:
            _seen.add(value)


def seen() -> frozenset[str]:
    return frozenset(_seen)


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
