"""Render payload contracts as the SQL file that fills the database's payload_contracts."""

from __future__ import annotations

import json
from dataclasses import fields

from genji_sdk.contracts.model import ContractNode, contract_nodes
from genji_sdk.envelope import TRACE_ALLOWLIST, TRACE_VALUE_MAX_CHARS
from genji_sdk.registry import EventRegistry

__all__ = ("render_sql",)

HEADER = """\
-- Payload contracts, generated from the SDK's payload types (genji_sdk.registry REGISTRY), and
-- the tracing headers a job may carry (genji_sdk.envelope).
-- Do not edit: change the payload types or the allow-list, then run `just payload-contracts`.
-- Each run replaces every contract; sql/payload_check.sql reads them on every enqueue.
-- One JSON object per node (fields of payload_contract_node); a constraint applies only to
-- values of its own JSON type, and a field left out is NULL, which means no constraint.
"""

# Identify the contract row, not the node.
_ROW_FIELDS = ("event_name", "payload_version")


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _node_json(node: ContractNode) -> str:
    data = {
        f.name: list(value) if isinstance(value, tuple) else value
        for f in fields(node)
        if f.name not in _ROW_FIELDS
        and (value := getattr(node, f.name)) is not None
        and not (f.name == "required" and value is False)
    }
    return json.dumps(data, ensure_ascii=False)


def _trace_filter() -> str:
    names = ", ".join(_quote(name) for name in sorted(TRACE_ALLOWLIST))
    cut = TRACE_VALUE_MAX_CHARS
    return f"""
-- Only these tracing headers are stored with a job: lower-cased keys, values cut to
-- {TRACE_VALUE_MAX_CHARS} characters (genji_sdk.envelope TRACE_ALLOWLIST, TRACE_VALUE_MAX_CHARS).
-- PL/pgSQL keeps its query's plan for the session: a SQL function with a SET clause is not
-- inlined, and it would be parsed and planned again at every call.
CREATE OR REPLACE FUNCTION queue_trace_filter(p_trace jsonb) RETURNS jsonb
LANGUAGE plpgsql
IMMUTABLE
SET search_path = public, pg_temp
AS $$
BEGIN
    RETURN (SELECT coalesce(jsonb_object_agg(lower(e.key), left(e.value, {cut})), '{{}}')
            FROM jsonb_each_text(coalesce(p_trace, '{{}}')) e
            WHERE lower(e.key) IN ({names}));
END
$$;"""


_INLINE = """
-- Every enqueue reads its contract's row: rows up to a page stay uncompressed in the table, so
-- that read decompresses nothing (the default compresses a row over about 2 kB).
ALTER TABLE payload_contracts SET (toast_tuple_target = 8160);"""


def render_sql(registry: EventRegistry) -> str:
    """The complete contents of sql/payload_contracts.sql for `registry`."""
    by_event: dict[str, list[ContractNode]] = {}
    for node in contract_nodes(registry):
        by_event.setdefault(node.event_name, []).append(node)
    lines = [HEADER + _trace_filter(), _INLINE, "", "DELETE FROM payload_contracts;"]
    for spec in registry:
        nodes = ",\n".join("    " + _node_json(node) for node in by_event[spec.name])
        lines += [
            "",
            f"-- {spec.name}, version {spec.payload_version}: {spec.payload_type.__qualname__}",
            "INSERT INTO payload_contracts (event_name, payload_version, nodes)",
            f"VALUES ({_quote(spec.name)}, {spec.payload_version}, payload_nodes(",
            _quote("[\n" + nodes + "\n]") + "));",
        ]
    return "\n".join(lines) + "\n"
