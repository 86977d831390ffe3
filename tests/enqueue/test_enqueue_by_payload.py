"""The typed enqueue takes the event from the payload's type: the event name and the payload
bytes in the database are the registry's, and a stated name must be the payload's own."""

from __future__ import annotations

import json

import msgspec
import pytest
from genji_api.queue.enqueue import enqueue_job
from genji_devstack.payload_samples import SAMPLES
from genji_sdk import REGISTRY, PayloadTypeError, UnknownEventError

from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


async def test_each_payload_is_stored_under_its_own_event_with_the_registrys_bytes(
    connect: Connect,
) -> None:
    conn = await connect()
    async with conn.transaction():
        for name, payload in SAMPLES.items():
            await enqueue_job(conn, payload=payload, event_key=f"k:{name}", entity_key=None)
    rows = await conn.fetch(
        "SELECT j.action, j.event_key, convert_from(q.payload, 'UTF8')::jsonb AS envelope "
        "FROM jobs j JOIN pgqueuer q ON q.id = j.queue_job_id"
    )
    stored = {row["event_key"]: (row["action"], json.loads(row["envelope"])) for row in rows}
    assert len(stored) == len(SAMPLES) == len(REGISTRY)
    for name, payload in SAMPLES.items():
        action, envelope = stored[f"k:{name}"]
        assert action == name
        assert envelope["payload"] == json.loads(REGISTRY.encode(name, payload))


async def test_a_stated_name_must_be_the_payloads_and_an_unknown_type_names_nothing(
    connect: Connect,
) -> None:
    class Stray(msgspec.Struct):
        x: int

    conn = await connect()
    async with conn.transaction():
        with pytest.raises(PayloadTypeError, match=r"api\.completion\.upvote"):
            await enqueue_job(
                conn,
                event_name="api.completion.upvote",
                payload=SAMPLES["api.xp.grant"],
                event_key="k:1",
                entity_key=None,
            )
        with pytest.raises(UnknownEventError, match="Stray"):
            await enqueue_job(conn, payload=Stray(1), event_key="k:2", entity_key=None)
    assert await conn.fetchval("SELECT count(*) FROM jobs") == 0
