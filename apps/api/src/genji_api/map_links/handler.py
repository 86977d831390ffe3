"""map.linked.newsfeed.requested: announce a link once the official map's playtest thread exists.

The queue starts this job only after its depends_on parent (the playtest-create job) succeeded,
so the handler only resolves the thread and creates the newsfeed entry, whose delivery job
commits with it. The link operation records the entry, so a rerun creates nothing new.
"""

from __future__ import annotations

import asyncpg
import msgspec
from genji_sdk import JobContext
from genji_sdk.newsfeed import NewsfeedLinkedMap
from genji_sdk.payloads import LinkedMapNewsfeedRequestedEvent
from genji_worker.executor import Handler

from genji_api.database import Database
from genji_api.map_links import repository as links
from genji_api.newsfeed.entries import create_newsfeed
from genji_api.settings import ApiSettings

_KEY_PREFIX = "map:linked:"


class ThreadNotReadyError(RuntimeError):
    """The playtest-create job succeeded but its thread id is not recorded yet (retried)."""


def _operation_id(context: JobContext) -> int:
    if not context.event_key.startswith(_KEY_PREFIX):
        raise ValueError(f"unexpected event key {context.event_key!r}")
    return int(context.event_key.removeprefix(_KEY_PREFIX))


async def announce_link(
    conn: asyncpg.Connection, event: LinkedMapNewsfeedRequestedEvent, context: JobContext
) -> int:
    """The newsfeed id announcing the link, created now or by an earlier run."""
    operation_id = _operation_id(context)
    operation = await links.lock_operation(conn, operation_id)
    if operation is None or operation.official_map_id != event.official_map_id:
        raise LookupError(f"link operation {operation_id} does not match the job")
    if operation.newsfeed_id is not None:
        return operation.newsfeed_id
    thread_id = await links.playtest_thread(conn, event.official_map_id)
    if thread_id is None:
        raise ThreadNotReadyError(f"map {event.official_map_id} has no playtest thread yet")
    created = await create_newsfeed(
        conn,
        NewsfeedLinkedMap(
            official_code=event.official_code,
            unofficial_code=event.unofficial_code,
            playtest_id=thread_id,
        ),
        trace=context.trace,
    )
    await links.record_newsfeed(conn, operation_id, created.newsfeed_id)
    return created.newsfeed_id


def make_linked_newsfeed_handler(database: Database, settings: ApiSettings) -> Handler:
    del settings  # the continuation needs no settings beyond the database

    async def handle(payload: msgspec.Struct, context: JobContext) -> None:
        assert isinstance(payload, LinkedMapNewsfeedRequestedEvent)
        await database.transaction(lambda conn: announce_link(conn, payload, context))

    return handle
