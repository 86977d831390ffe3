"""The SDK registry and the database's event table describe the same 24 entrypoints."""

import pytest
from genji_sdk import REGISTRY
from testdb import Connect

pytestmark = pytest.mark.queue


async def test_q26_registry_matches_queue_event_types(connect: Connect) -> None:
    conn = await connect()
    rows = await conn.fetch(
        "SELECT event_name, owner, payload_version, entity_ordered FROM queue_event_types"
    )
    in_database = {
        r["event_name"]: (r["owner"], r["payload_version"], r["entity_ordered"]) for r in rows
    }
    in_registry = {s.name: (s.owner, s.payload_version, s.entity_ordered) for s in REGISTRY}
    assert in_database == in_registry
