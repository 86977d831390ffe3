"""An enqueue's event key (its idempotency key) and entity key are blank when they hold nothing
but whitespace of any kind, the same `text_is_blank` the recovery checks use: enqueue_job and
enqueue_jobs refuse them (GJ003) and write nothing."""

from __future__ import annotations

import asyncpg
import msgspec
import pytest
from genji_queue import enqueue_batch
from genji_queue.enqueue_batch import BatchItem
from genji_queue.errors import InvalidJobRequestError

from tests.support.queue_helpers import XP_EVENT, xp_payload
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

XP_JSON = msgspec.json.encode(xp_payload()).decode()
RAW_ENQUEUE = "SELECT * FROM enqueue_job('api.xp.grant', $1::jsonb, $2, $3)"
BLANK = {
    "empty": "",
    "tab-newline": "\t\n",
    "nbsp-emspace": "\u00a0\u2003",
    "mixed": " \r\n\u3000\ufeff\u200b\t",
}
WITH_INNER_SPACES = " xp:grant\u00a07\t"


async def _written(conn: asyncpg.Connection) -> int:
    count: int = await conn.fetchval("SELECT (SELECT count(*) FROM jobs) + count(*) FROM pgqueuer")
    return count


@pytest.mark.parametrize("key", BLANK.values(), ids=BLANK.keys())
@pytest.mark.parametrize("field", ["event_key", "entity_key"])
async def test_a_blank_key_is_refused_by_enqueue_job(
    connect: Connect, field: str, key: str
) -> None:
    conn = await connect()
    event_key, entity_key = (key, None) if field == "event_key" else ("xp:1", key)
    with pytest.raises(asyncpg.PostgresError, match=field) as caught:
        await conn.fetch(RAW_ENQUEUE, XP_JSON, event_key, entity_key)
    assert caught.value.sqlstate == "GJ003"
    assert await _written(conn) == 0


@pytest.mark.parametrize("key", BLANK.values(), ids=BLANK.keys())
@pytest.mark.parametrize("field", ["event_key", "entity_key"])
async def test_a_blank_key_is_refused_by_enqueue_jobs(
    connect: Connect, field: str, key: str
) -> None:
    conn = await connect()
    blank = (
        BatchItem(XP_EVENT, XP_JSON, key)
        if field == "event_key"
        else BatchItem(XP_EVENT, XP_JSON, "xp:2", key)
    )
    with pytest.raises(InvalidJobRequestError, match=field):
        async with conn.transaction():
            await enqueue_batch.enqueue_jobs(conn, [BatchItem(XP_EVENT, XP_JSON, "xp:1"), blank])
    assert await _written(conn) == 0


async def test_keys_with_text_between_spaces_are_accepted(connect: Connect) -> None:
    conn = await connect()
    row = await conn.fetchrow(RAW_ENQUEUE, XP_JSON, WITH_INNER_SPACES, WITH_INNER_SPACES)
    assert row is not None and row["created"]
    async with conn.transaction():
        batch = await enqueue_batch.enqueue_jobs(
            conn, [BatchItem(XP_EVENT, XP_JSON, f"{WITH_INNER_SPACES}b", "\u2003user 7")]
        )
    assert [item.created for item in batch] == [True]
    assert await conn.fetchval("SELECT count(*) FROM jobs") == 2
