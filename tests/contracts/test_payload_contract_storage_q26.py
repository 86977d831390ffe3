"""Q26: the contract table refuses node lists the validator could misread."""

from __future__ import annotations

import json

import asyncpg
import pytest

from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

ROOT = {
    "node": 0,
    "role": "payload",
    "json_types": ["object"],
    "object_kind": "struct",
    "extra_fields": "ignore",
}
FIELD = {
    "node": 1,
    "parent": 0,
    "role": "field",
    "field_name": "n",
    "required": True,
    "json_types": ["integer"],
}


async def _store(conn: asyncpg.Connection, nodes: list[dict[str, object]]) -> None:
    await conn.execute(
        "UPDATE payload_contracts SET nodes = payload_nodes($1::jsonb)"
        " WHERE event_name = 'api.newsfeed.create'",
        json.dumps(nodes),
    )


async def test_q26_a_well_formed_contract_is_stored_and_read_back(connect: Connect) -> None:
    conn = await connect()
    await _store(conn, [ROOT, FIELD])
    rows = await conn.fetch(
        "SELECT node, field_name, required FROM payload_contract_nodes"
        " WHERE event_name = 'api.newsfeed.create' ORDER BY node"
    )
    assert [tuple(r) for r in rows] == [(0, None, False), (1, "n", True)]


@pytest.mark.parametrize(
    ("nodes", "message"),
    [
        pytest.param([ROOT, {**FIELD, "requird": True}], "cannot hold", id="misspelled-key"),
        pytest.param([ROOT, {**FIELD, "min_length": "four"}], "invalid input", id="mistyped-value"),
        pytest.param([ROOT, {**FIELD, "node": 2}], "out of order", id="numbered-out-of-order"),
        pytest.param([{**FIELD, "node": 0}], "only node 0", id="no-payload-node"),
        pytest.param(
            [ROOT, {**FIELD, "json_types": ["float"]}], "unknown JSON type", id="unknown-type"
        ),
        pytest.param(
            [
                ROOT,
                {**ROOT, "node": 1, "parent": 0, "role": "field", "field_name": "a"},
                {"node": 2, "parent": 0, "role": "field", "field_name": "m"},
                {"node": 3, "parent": 1, "role": "field", "field_name": "x"},
            ],
            "not numbered depth first",
            id="not-depth-first",
        ),
        pytest.param(
            [ROOT, {**FIELD, "role": "value", "field_name": None}],
            "not a map",
            id="value-under-a-struct",
        ),
    ],
)
async def test_q26_malformed_contracts_are_refused(
    connect: Connect, nodes: list[dict[str, object]], message: str
) -> None:
    conn = await connect()
    given = [{k: v for k, v in n.items() if v is not None} for n in nodes]
    with pytest.raises(asyncpg.PostgresError) as caught:
        await _store(conn, given)
    if isinstance(caught.value, asyncpg.CheckViolationError):
        problem = await conn.fetchval(
            "SELECT payload_nodes_problem(payload_nodes($1::jsonb))", json.dumps(given)
        )
        assert message in problem
    else:
        assert message in str(caught.value)


async def test_every_contract_that_fits_a_page_is_read_without_decompressing(
    connect: Connect,
) -> None:
    """Every enqueue reads its contract's row: stored uncompressed unless it could not fit in a
    page (8160 bytes, the table's toast_tuple_target) without compression."""
    conn = await connect()
    compressed = await conn.fetch(
        "SELECT c.event_name FROM payload_contracts c"
        " WHERE (pg_column_compression(c.nodes) IS NOT NULL"
        "        OR pg_column_compression(c.fast_check) IS NOT NULL"
        "        OR pg_column_compression(c.fraction_screen) IS NOT NULL)"
        "   AND pg_column_size(ROW(c.event_name, c.payload_version,"
        "                          c.nodes::text::payload_contract_node[],"
        "                          c.fast_check::text::jsonpath, c.fraction_screen || '')) < 8160"
    )
    assert [r["event_name"] for r in compressed] == []
