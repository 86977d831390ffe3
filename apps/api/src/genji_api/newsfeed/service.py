"""Create a newsfeed entry (once per handler effect) and read one back."""

from __future__ import annotations

import asyncpg
from genji_sdk.newsfeed import NewsfeedPayload

from genji_api.database import Database
from genji_api.effects.context import EffectContext
from genji_api.effects.once import once
from genji_api.effects.rules import rule
from genji_api.errors import NotFoundError
from genji_api.http.tracing import Trace
from genji_api.newsfeed import repository
from genji_api.newsfeed.entries import create_newsfeed
from genji_api.newsfeed.models import NewsfeedCreatedResponse, NewsfeedEntryResponse

# The effects handlers request here, and the jobs that may request each.
NEWSFEED_EFFECTS = rule(
    newsfeed=["api.completion.verification", "api.playtest.approve", "api.playtest.force_accept"]
)


async def create_entry(
    database: Database,
    entry: NewsfeedPayload,
    *,
    effect: EffectContext | None,
    trace: Trace,
) -> NewsfeedCreatedResponse:
    """The entry and its api.newsfeed.create job commit together; a replayed effect returns
    the entry it created the first time."""

    async def work(conn: asyncpg.Connection) -> NewsfeedCreatedResponse:
        async def perform() -> NewsfeedCreatedResponse:
            created = await create_newsfeed(conn, entry, trace=trace)
            return NewsfeedCreatedResponse(newsfeed_id=created.newsfeed_id, job_status=created.job)

        return await once(
            conn, effect, entry, NewsfeedCreatedResponse, perform, rule=NEWSFEED_EFFECTS
        )

    return await database.transaction(work)


async def get_entry(database: Database, newsfeed_id: int) -> NewsfeedEntryResponse:
    found = await database.read(lambda conn: repository.entry(conn, newsfeed_id))
    if found is None:
        raise NotFoundError(f"No newsfeed entry found with id: {newsfeed_id}")
    return found
