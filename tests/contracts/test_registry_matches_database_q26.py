"""Q26: the database describes the SDK registry's 24 entrypoints, their owners and contracts."""

from dataclasses import astuple, fields

import pytest
from genji_sdk import REGISTRY
from genji_sdk.contracts import ContractNode, contract_nodes

from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


async def test_q26_registry_matches_queue_event_types(connect: Connect) -> None:
    conn = await connect()
    rows = await conn.fetch("SELECT event_name, owner, entity_ordered FROM queue_event_types")
    in_database = {r["event_name"]: (r["owner"], r["entity_ordered"]) for r in rows}
    in_registry = {s.name: (s.owner, s.entity_ordered) for s in REGISTRY}
    assert in_database == in_registry


async def test_q26_database_accepts_exactly_the_payload_versions_the_worker_decodes(
    connect: Connect,
) -> None:
    conn = await connect()
    rows = await conn.fetch(
        "SELECT event_name, array_agg(payload_version ORDER BY payload_version) AS versions"
        " FROM payload_contracts GROUP BY event_name"
    )
    assert {r["event_name"]: r["versions"] for r in rows} == {
        s.name: [s.payload_version] for s in REGISTRY
    }
    # The contracts are the only version rule: the event table keeps none of its own.
    columns = await conn.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'queue_event_types'"
    )
    assert "payload_version" not in {r["column_name"] for r in columns}


async def test_q26_deployed_contracts_are_the_sdk_payload_types(connect: Connect) -> None:
    conn = await connect()
    columns = [f.name for f in fields(ContractNode)]
    rows = await conn.fetch(
        f"SELECT {', '.join(columns)} FROM payload_contract_nodes ORDER BY event_name, node"
    )
    deployed = [tuple(tuple(v) if isinstance(v, list) else v for v in r.values()) for r in rows]
    generated = sorted(
        (astuple(node) for node in contract_nodes(REGISTRY)), key=lambda row: (row[0], row[2])
    )
    assert deployed == generated
