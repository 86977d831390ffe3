"""What the database already knows about an exported message: its domain rows, proof that its
effect happened, legacy claims and legacy job rows, and a job the new producers already made.

Only reads; every function takes the caller's connection.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg
from genji_queue.status import job_public_status
from genji_sdk import payloads as p

from genji_api.rows import maybe_row_as

# The domain row each event is about: (description, SQL returning a row when it exists, the
# payload's id). A message about a row that is gone cannot be imported blindly.
_ROWS: dict[str, tuple[str, str, str]] = {
    "api.completion.autoverification.failed": ("completion", "core.completions", "completion_id"),
    "api.completion.submission": ("completion", "core.completions", "completion_id"),
    "api.completion.verification": (
        "verification transition",
        "completions.verification_transitions",
        "transition_id",
    ),
    "api.map_edit.created": ("edit request", "maps.edit_requests", "edit_request_id"),
    "api.map_edit.resolved": ("edit request", "maps.edit_requests", "edit_request_id"),
    "api.newsfeed.create": ("newsfeed entry", "public.newsfeed", "newsfeed_id"),
    "api.notification.delivery": ("notification event", "notifications.events", "event_id"),
    "api.playtest.create": ("playtest", "playtests.meta", "playtest_id"),
    "api.tournament.completion.created": (
        "tournament completion",
        "tournaments.completions",
        "completion_id",
    ),
    "api.tournament.verification.changed": (
        "tournament verdict",
        "tournaments.verdicts",
        "transition_id",
    ),
    "api.tournament.rollover": ("edition", "tournaments.editions", "edition_id"),
    "api.tournament.results": ("edition", "tournaments.editions", "edition_id"),
    "api.xp.grant": ("XP grant", "lootbox.xp_grants", "grant_id"),
}


async def missing_domain_row(conn: asyncpg.Connection, event_name: str, payload: Any) -> str | None:
    """Why the message's domain row is missing, or None when it exists (or none is needed)."""
    spec = _ROWS.get(event_name)
    if spec is None:
        return None
    what, table, field = spec
    row_id = getattr(payload, field)
    if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table} WHERE id = $1)", row_id):
        return None
    return f"the {what} {row_id} does not exist"


async def completed_effect(conn: asyncpg.Connection, event_name: str, payload: Any) -> str | None:
    """The domain evidence that the event's effect already happened, if any."""
    if isinstance(payload, p.CompletionCreatedEvent):
        message = await conn.fetchval(
            "SELECT verification_id FROM core.completions WHERE id = $1", payload.completion_id
        )
        return None if message is None else f"completion review message {message} is recorded"
    if isinstance(payload, p.TournamentCompletionCreatedEvent):
        message = await conn.fetchval(
            "SELECT verification_message_id FROM tournaments.completions WHERE id = $1",
            payload.completion_id,
        )
        return None if message is None else f"tournament review message {message} is recorded"
    if isinstance(payload, p.MapEditCreatedEvent):
        message = await conn.fetchval(
            "SELECT message_id FROM maps.edit_requests WHERE id = $1", payload.edit_request_id
        )
        return None if message is None else f"edit request message {message} is recorded"
    if isinstance(payload, p.NotificationDeliveryEvent) and payload.channels_to_deliver:
        done = await conn.fetchval(
            "SELECT count(*) FROM notifications.delivery_log"
            " WHERE event_id = $1 AND channel = ANY($2::text[])"
            " AND status IN ('delivered', 'skipped')",
            payload.event_id,
            list(payload.channels_to_deliver),
        )
        if done == len(set(payload.channels_to_deliver)):
            return "every requested channel has a final delivery record"
    return None


@dataclass(frozen=True)
class ExistingJob:
    id: UUID
    status: str


async def existing_job(
    conn: asyncpg.Connection, event_name: str, event_key: str
) -> ExistingJob | None:
    job_id: UUID | None = await conn.fetchval(
        "SELECT id FROM public.jobs WHERE action = $1 AND event_key = $2", event_name, event_key
    )
    if job_id is None:
        return None
    status = await job_public_status(conn, job_id)
    return ExistingJob(id=job_id, status=status.status)


@dataclass(frozen=True)
class NamedJob:
    """The public.jobs row with the message's original job id."""

    action: str
    status: str
    legacy: bool
    """A legacy identity row: no event key and never queued by the new system."""


async def named_job(conn: asyncpg.Connection, job_id: UUID) -> NamedJob | None:
    return maybe_row_as(
        NamedJob,
        await conn.fetchrow(
            "SELECT action, status::text AS status,"
            " event_key IS NULL AND queue_job_id IS NULL AS legacy FROM public.jobs WHERE id = $1",
            job_id,
        ),
    )


async def legacy_claim(conn: asyncpg.Connection, key: str | None) -> datetime | None:
    if key is None:
        return None
    claimed: datetime | None = await conn.fetchval(
        "SELECT processed_at FROM public.processed_messages WHERE idempotency_key = $1", key
    )
    return claimed
