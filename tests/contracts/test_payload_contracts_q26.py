"""Q26: the database's payload contracts are the SDK's, and agree with the worker's decoder.

The SQL verdict (payload_problem is NULL) must equal whether the worker decodes the payload:
decode_envelope on the envelope bytes enqueue_job writes, then decode_envelope_payload, which
is genji_sdk.decode_payload on what the envelope holds. Cases are every registered event's
sample and several thousand single-place mutations of them, plus a registry of synthetic
payload types that exercises each construct the generator supports but the real payloads do
not use yet.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal
from uuid import uuid4

import asyncpg
import msgspec
import pytest
from genji_devstack.payload_samples import SAMPLES
from genji_sdk import (
    REGISTRY,
    EventRegistry,
    EventSpec,
    MalformedEnvelopeError,
    MalformedPayloadError,
    UnsupportedPayloadVersionError,
    decode_envelope,
    decode_envelope_payload,
)
from genji_sdk.contracts import UnsupportedContractError, contract_nodes, render_sql

from tests.support.testdb import Connect

from .payload_mutations import mutations

pytestmark = pytest.mark.queue

CONTRACTS_SQL = Path(__file__).resolve().parents[2] / "sql" / "payload_contracts.sql"

# payload_problem decides most payloads with the contract's jsonpath; payload_walk_problem is
# the exact walk behind it. Both must agree with the worker.
VERDICTS = """
SELECT u.ord, u.text::jsonb::text AS rendered, payload_problem($1, $2, u.text::jsonb) AS problem,
       payload_walk_problem($1, $2, u.text::jsonb) AS walked
FROM unnest($3::text[]) WITH ORDINALITY AS u(text, ord)
ORDER BY u.ord
"""


def worker_decodes(registry: EventRegistry, name: str, version: int, rendered: str) -> bool:
    """Whether the worker reads this payload, given the JSON text enqueue_job stores."""
    envelope = msgspec.json.encode(
        {
            "job_id": str(uuid4()),
            "event_name": name,
            "event_key": "k",
            "payload_version": version,
            "payload": msgspec.Raw(rendered.encode()),
            "trace": {},
        }
    )
    try:
        decode_envelope_payload(decode_envelope(envelope), registry)
    except (MalformedEnvelopeError, MalformedPayloadError, UnsupportedPayloadVersionError):
        return False
    except RecursionError:  # msgspec's nesting limit, raised past the decoders' own errors
        return False
    return True


async def disagreements(
    conn: asyncpg.Connection, registry: EventRegistry, name: str, valid: dict[str, Any]
) -> tuple[int, list[str]]:
    cases = list(mutations(valid))
    version = registry.get(name).payload_version
    rows = await conn.fetch(VERDICTS, name, version, [text.decode() for _, text in cases])
    found = []
    for (description, _), row in zip(cases, rows, strict=True):
        worker = worker_decodes(registry, name, version, row["rendered"])
        for column in ("problem", "walked"):
            if (row[column] is None) != worker:
                found.append(f"{name} {description}: {column} says {row[column] or 'valid'}")
    return len(cases), found


def test_q26_committed_contracts_match_the_sdk_payload_types() -> None:
    assert CONTRACTS_SQL.read_text() == render_sql(REGISTRY), (
        "sql/payload_contracts.sql is stale: run `just payload-contracts`"
    )


@pytest.mark.parametrize("name", sorted(SAMPLES))
async def test_q26_sql_contract_agrees_with_the_worker_decoder(connect: Connect, name: str) -> None:
    conn = await connect()
    valid = msgspec.to_builtins(SAMPLES[name])
    count, found = await disagreements(conn, REGISTRY, name, valid)
    assert count > 50
    assert not found, f"{len(found)} of {count} cases disagree:\n" + "\n".join(found[:25])


# Constructs the generator supports beyond what the registered payloads use today. The first
# event is decided by the contract's jsonpath; the second holds what only the walk checks.
Even = Annotated[int, msgspec.Meta(ge=-10, lt=100, multiple_of=2)]
Positive = Annotated[int, msgspec.Meta(gt=0, le=5)]
Slug = Annotated[str, msgspec.Meta(min_length=2, max_length=8, pattern=r"^(?:ab|c.d)+$|^x{2,3}$")]


class Inner(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    flag: bool
    label: Literal["on", "off"] | None = None


class Features(msgspec.Struct, rename="camel", kw_only=True):
    even_number: Even
    positive: Positive | None = None
    slug: Slug
    tags: Annotated[list[Slug], msgspec.Meta(min_length=1, max_length=3)]
    counts: dict[str, Positive] = {}
    inner: Inner | None
    inners: list[Inner] = []
    anything: Any = None
    loose: list[Any] = []


class WalkOnly(msgspec.Struct, kw_only=True):
    grid: list[list[int]]
    sized: Annotated[dict[str, Any], msgspec.Meta(min_length=1, max_length=2)]
    when: datetime | None = None


SYNTHETIC = EventRegistry(
    [
        EventSpec(name="test.features", owner="api", payload_type=Features),
        EventSpec(name="test.walk_only", owner="api", payload_type=WalkOnly),
    ]
)
SYNTHETIC_SAMPLES = {
    "test.features": {
        "evenNumber": 42,
        "positive": 3,
        "slug": "abcxd",
        "tags": ["ab", "xxx"],
        "counts": {"a": 1, "b": 5},
        "inner": {"flag": True, "label": "on"},
        "inners": [{"flag": False}],
        "anything": {"free": [1, "two", None]},
        "loose": [1, "x", {"y": 2}],
    },
    "test.walk_only": {
        "grid": [[1, 2], [3]],
        "sized": {"a": 1},
        "when": "2026-10-05T18:00:00+02:00",
    },
}


@pytest.mark.parametrize("name", sorted(SYNTHETIC_SAMPLES))
async def test_q26_sql_contract_agrees_on_every_supported_construct(
    connect: Connect, name: str
) -> None:
    conn = await connect()
    await conn.execute(
        "INSERT INTO queue_event_types (event_name, owner) VALUES ('test.features', 'api'),"
        " ('test.walk_only', 'api')"
    )
    await conn.execute(render_sql(SYNTHETIC))
    fast = await conn.fetchval(
        "SELECT fast_check IS NOT NULL FROM payload_contracts WHERE event_name = $1", name
    )
    assert fast is (name == "test.features")
    count, found = await disagreements(conn, SYNTHETIC, name, SYNTHETIC_SAMPLES[name])
    assert count > 200
    assert not found, f"{len(found)} of {count} cases disagree:\n" + "\n".join(found[:25])


async def test_q26_the_stored_checks_are_those_of_the_deployed_generators(
    connect: Connect,
) -> None:
    """A generated column keeps what its function returned when the row was written, so a
    change of a generator must rewrite the contracts it deploys after."""
    conn = await connect()
    stale = await conn.fetch(
        "SELECT event_name, payload_version FROM payload_contracts "
        "WHERE fast_check::text IS DISTINCT FROM payload_fast_check(nodes)::text "
        "   OR fraction_screen IS DISTINCT FROM payload_fraction_screen(nodes)"
    )
    assert await conn.fetchval("SELECT count(*) FROM payload_contracts") > 20
    assert [tuple(row) for row in stale] == []


async def test_q26_valid_payloads_are_decided_by_the_jsonpath_alone(connect: Connect) -> None:
    """The cheap path covers every event without a date-time; the walk is for the rest."""
    conn = await connect()
    rows = await conn.fetch("SELECT event_name, fast_check FROM payload_contracts")
    fast = {r["event_name"]: r["fast_check"] for r in rows}
    assert {name for name, check in fast.items() if check is None} == {"api.tournament.rollover"}
    for name, sample in SAMPLES.items():
        if fast[name] is None:
            continue
        full = msgspec.to_builtins(sample)
        # A producer may also leave out the fields that have defaults.
        optional = {f.encode_name for f in msgspec.structs.fields(sample) if not f.required}
        for body in (full, {k: v for k, v in full.items() if k not in optional}):
            decided = await conn.fetchval(
                "SELECT jsonb_path_match($1::jsonb, $2::jsonpath, '{}', true)",
                msgspec.json.encode(body).decode(),
                fast[name],
            )
            assert decided is True, (name, body)


class Floats(msgspec.Struct, kw_only=True):
    time: float
    note: str


# A contract without integer-only values.
FLOATS = EventRegistry([EventSpec(name="test.floats", owner="api", payload_type=Floats)])

# The top-level integer-only and float fields of every contract, by event.
TOP_LEVEL_NUMBERS = """
SELECT n.event_name, n.field_name, 'number' = ANY (n.json_types) AS is_float
FROM payload_contract_nodes n
WHERE n.parent = 0 AND (n.json_types && ARRAY['integer', 'number'])
"""
# What payload_problem and enqueue's fast paths ask before trusting the contract's jsonpath.
SCREENED = """
SELECT payload_fraction_suspect($2::jsonb::text, c.fraction_screen)
FROM payload_contracts c WHERE c.event_name = $1
"""


def with_raw(sample: dict[str, Any], field: str, number: bytes) -> str:
    """The sample as JSON text with `field` written as `number`, exactly as given."""
    return msgspec.json.encode({**sample, field: msgspec.Raw(number)}).decode()


async def test_q26_only_an_integer_written_as_5_0_keeps_a_payload_from_the_jsonpath(
    connect: Connect,
) -> None:
    """jsonpath cannot tell 5.0 from 5, so a zero fraction where the contract wants an integer
    sends the payload to the walk; a whole float, such as a run of exactly 100 seconds, does
    not, nor does any number of a contract without integer-only values."""
    conn = await connect()
    screened = 0
    for row in await conn.fetch(TOP_LEVEL_NUMBERS):
        name, field = row["event_name"], row["field_name"]
        sample = msgspec.to_builtins(SAMPLES[name])
        for number in (b"100.0", b"-7.00"):
            body = with_raw(sample, field, number)
            expected = not row["is_float"]
            assert await conn.fetchval(SCREENED, name, body) is expected, (name, field, number)
            screened += expected
    assert screened > 100

    await conn.execute(
        "INSERT INTO queue_event_types (event_name, owner) VALUES ('test.features', 'api'),"
        " ('test.walk_only', 'api'), ('test.floats', 'api')"
    )
    await conn.execute(render_sql(FLOATS))
    assert await conn.fetchval(SCREENED, "test.floats", '{"time": 5.0, "note": "5.0]"}') is False
    # An integer-only array item or map value can be anywhere: every zero fraction is suspect.
    await conn.execute(render_sql(SYNTHETIC))
    for name, place in (("test.features", "slug"), ("test.walk_only", "when")):
        body = with_raw(SYNTHETIC_SAMPLES[name], place, b"1.0")
        assert await conn.fetchval(SCREENED, name, body) is True, name


async def test_q26_nesting_beyond_the_decoder_is_refused_and_within_64_levels_accepted(
    connect: Connect,
) -> None:
    conn = await connect()
    valid = msgspec.to_builtins(SAMPLES["api.notification.delivery"])

    def nested(levels: int) -> str:
        # metadata is dict[str, Any]: the payload object and metadata are two levels.
        body = {**valid, "metadata": {"deep": None}}
        text = msgspec.json.encode(body).decode()
        return text.replace('"deep":null', '"deep":' + "[" * levels + "1" + "]" * levels)

    rows = await conn.fetch(
        VERDICTS, "api.notification.delivery", 1, [nested(62), nested(63), nested(3000)]
    )
    within, over, beyond = (row["problem"] for row in rows)
    assert within is None
    assert worker_decodes(REGISTRY, "api.notification.delivery", 1, rows[0]["rendered"])
    assert over == "$: values are nested more than 64 levels deep"
    # The decoder's own limit is the interpreter's recursion limit, which depends on the
    # caller's stack; the contract's fixed limit sits well below it.
    assert beyond == over
    assert not worker_decodes(REGISTRY, "api.notification.delivery", 1, rows[2]["rendered"])


@pytest.mark.parametrize(
    ("annotation", "why"),
    [
        pytest.param(int | float, "int | float", id="int-or-float"),
        pytest.param(list[int] | dict[str, int], "an array and an object", id="list-or-dict"),
        pytest.param(Annotated[float, msgspec.Meta(ge=0.5)], "float", id="float-bounds"),
        pytest.param(Annotated[str, msgspec.Meta(pattern=r"^\d+$")], r"\\d", id="unicode-digit"),
        pytest.param(dict[int, str], "dict keys", id="int-keys"),
        pytest.param(set[str], "SetType", id="set"),
        pytest.param(bytes, "BytesType", id="bytes"),
        pytest.param(Literal[1, 2], "Literal", id="int-literal"),
    ],
)
def test_q26_constructs_without_a_faithful_sql_rule_are_refused(annotation: Any, why: str) -> None:
    payload_type = msgspec.defstruct("Odd", [("value", annotation)])
    registry = EventRegistry([EventSpec(name="test.odd", owner="api", payload_type=payload_type)])
    with pytest.raises(UnsupportedContractError, match=why):
        list(contract_nodes(registry))
