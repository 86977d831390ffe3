"""The scopes an API key can carry. A route without required scopes is superuser-only."""

from __future__ import annotations

from typing import Final

MAPS_READ: Final = "maps:read"
MAPS_WRITE: Final = "maps:write"
MAPS_ADMIN: Final = "maps:admin"
COMPLETIONS_READ: Final = "completions:read"
COMPLETIONS_WRITE: Final = "completions:write"
PLAYTESTS_WRITE: Final = "playtests:write"
XP_WRITE: Final = "xp:write"
NEWSFEED_WRITE: Final = "newsfeed:write"
NOTIFICATIONS_WRITE: Final = "notifications:write"
TOURNAMENTS_READ: Final = "tournaments:read"
TOURNAMENTS_WRITE: Final = "tournaments:write"
TOURNAMENTS_VERIFY: Final = "tournaments:verify"
JOBS_READ: Final = "jobs:read"
JOBS_MANAGE: Final = "jobs:manage"
EFFECTS_WRITE: Final = "effects:write"

ALL: Final = frozenset(
    {
        MAPS_READ,
        MAPS_WRITE,
        MAPS_ADMIN,
        COMPLETIONS_READ,
        COMPLETIONS_WRITE,
        PLAYTESTS_WRITE,
        XP_WRITE,
        NEWSFEED_WRITE,
        NOTIFICATIONS_WRITE,
        TOURNAMENTS_READ,
        TOURNAMENTS_WRITE,
        TOURNAMENTS_VERIFY,
        JOBS_READ,
        JOBS_MANAGE,
        EFFECTS_WRITE,
    }
)

# The bot's key: every scope. Its recovery requests (jobs:manage) act only for an operator in
# QUEUE_OPERATOR_IDS, which the API checks itself.
BOT: Final = ALL


def required(*scopes: str) -> dict[str, object]:
    """Route `opt` naming the scopes a non-superuser key needs (all of them)."""
    unknown = set(scopes) - ALL
    if unknown:
        raise ValueError(f"unknown scopes {sorted(unknown)}")
    return {"required_scopes": frozenset(scopes)}
