"""Q26: enqueue_job refuses payloads its worker could not decode, on both producer paths.

The SQL function (what psql and any raw caller reach) and the Python wrapper raise GJ003
naming the event and the field, and nothing of the job is written. The wrapper no longer
decodes the payload itself, so these cases reach the database even when the producer's payload
types disagree with the database's contract (a producer built from another SDK version).
"""

from __future__ import annotations

from dataclasses import replace

import asyncpg
import msgspec
import pytest
from genji_api.queue.enqueue import enqueue_job
from genji_queue.errors import InvalidJobRequestError, translate
from genji_sdk import REGISTRY, EventRegistry
from genji_sdk.contracts import render_sql
from genji_sdk.payloads.xp import XpGrantEvent

from tests.support.queue_helpers import XP_EVENT, xp_payload
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

FIFTY_MB = 50 * 1024 * 1024
VALID = msgspec.json.encode(xp_payload()).decode()
OVERSIZED = msgspec.json.encode(
    XpGrantEvent(**{**msgspec.to_builtins(xp_payload()), "reason": "x" * FIFTY_MB})
).decode()

# (payload JSON, version, what the message must name)
SQL_CASES = {
    "q26-type-3": ('{"type": 3}', None, "$.grant_id: required field is missing"),
    "q26-empty": ("{}", None, "$.grant_id: required field is missing"),
    "q26-wrong-type": (
        VALID.replace('"Completion"', "3"),
        None,
        "$.type: expected string, got number",
    ),
    "q26-50-mb": (OVERSIZED, None, "more than the limit of 262144 bytes"),
    "q26-unknown-version": (VALID, 2, "version 2 is not supported (supported: 1)"),
    "q26-version-zero": (VALID, 0, "version 0 is not supported (supported: 1)"),
}


async def _nothing_written(conn: asyncpg.Connection) -> None:
    counts = await conn.fetchrow(
        "SELECT (SELECT count(*) FROM jobs), (SELECT count(*) FROM pgqueuer),"
        " (SELECT count(*) FROM pgqueuer_log)"
    )
    assert tuple(counts or ()) == (0, 0, 0)


@pytest.mark.parametrize(("payload", "version", "named"), SQL_CASES.values(), ids=SQL_CASES.keys())
async def test_q26_sql_enqueue_refuses_payloads_the_worker_cannot_decode(
    connect: Connect, payload: str, version: int | None, named: str
) -> None:
    conn = await connect()
    with pytest.raises(asyncpg.PostgresError) as caught:
        await conn.execute(
            "SELECT enqueue_job('api.xp.grant', $1::jsonb, 'xp:grant:1', 'user:1', NULL, $2)",
            payload,
            version,
        )
    assert caught.value.sqlstate == "GJ003"
    assert str(caught.value).startswith("payload for api.xp.grant is invalid: ")
    assert named in str(caught.value)
    await _nothing_written(conn)


async def test_q26_sql_enqueue_refuses_an_integer_written_with_a_zero_fraction(
    connect: Connect,
) -> None:
    # The contract's jsonpath cannot tell 5.0 from 5, and the worker refuses 5.0 for an int.
    fraction = VALID.replace('"amount":5,', '"amount":5.0,')
    assert fraction != VALID
    conn = await connect()
    with pytest.raises(asyncpg.PostgresError) as caught:
        await conn.execute(
            "SELECT enqueue_job('api.xp.grant', $1::jsonb, 'xp:grant:1', 'user:1')", fraction
        )
    assert caught.value.sqlstate == "GJ003"
    assert str(caught.value).startswith("payload for api.xp.grant is invalid: $.amount: ")
    await _nothing_written(conn)


class OldXpGrant(msgspec.Struct):
    """A producer's stale idea of the XP payload: a field renamed, the rest missing."""

    type: int


class Nothing(msgspec.Struct):
    pass


def _skewed(payload_type: type[msgspec.Struct] = XpGrantEvent, version: int = 1) -> EventRegistry:
    spec = replace(REGISTRY.get(XP_EVENT), payload_type=payload_type, payload_version=version)
    return EventRegistry([spec])


WRAPPER_CASES = {
    "q26-type-3": (
        _skewed(OldXpGrant),
        OldXpGrant(type=3),
        "$.grant_id: required field is missing",
    ),
    "q26-empty": (_skewed(Nothing), Nothing(), "$.grant_id: required field is missing"),
    # msgspec does not check types at construction, so a producer bug reaches the encoder.
    "q26-wrong-type": (
        REGISTRY,
        XpGrantEvent(**{**msgspec.to_builtins(xp_payload()), "type": 3}),
        "$.type: expected string, got number",
    ),
    "q26-50-mb": (
        REGISTRY,
        XpGrantEvent(**{**msgspec.to_builtins(xp_payload()), "reason": "x" * FIFTY_MB}),
        "more than the limit of 262144 bytes",
    ),
    "q26-unknown-version": (_skewed(version=2), xp_payload(), "version 2 is not supported"),
}


@pytest.mark.parametrize(
    ("registry", "payload", "named"), WRAPPER_CASES.values(), ids=WRAPPER_CASES.keys()
)
async def test_q26_wrapper_enqueue_refuses_payloads_the_worker_cannot_decode(
    connect: Connect, registry: EventRegistry, payload: msgspec.Struct, named: str
) -> None:
    conn = await connect()
    with pytest.raises(InvalidJobRequestError) as caught:
        async with conn.transaction():
            await enqueue_job(
                conn,
                event_name=XP_EVENT,
                payload=payload,
                event_key="xp:grant:1",
                entity_key="user:1",
                registry=registry,
            )
    assert isinstance(caught.value.__cause__, asyncpg.PostgresError)
    assert caught.value.__cause__.sqlstate == "GJ003"
    assert str(caught.value).startswith("payload for api.xp.grant is invalid: ")
    assert named in str(caught.value)
    await _nothing_written(conn)


async def test_q26_an_older_version_is_refused_once_the_registry_moves_on(connect: Connect) -> None:
    """Versions are exactly the registry's: after a bump, version 1 no longer enters."""
    conn = await connect()
    await conn.execute(render_sql(_skewed(version=2)))
    with pytest.raises(asyncpg.PostgresError) as caught:
        await conn.execute(
            "SELECT enqueue_job('api.xp.grant', $1::jsonb, 'k', NULL, NULL, 1)", VALID
        )
    assert "version 1 is not supported (supported: 2)" in str(caught.value)
    assert isinstance(translate(caught.value), InvalidJobRequestError)
    job_id = await conn.fetchval(
        "SELECT job_id FROM enqueue_job('api.xp.grant', $1::jsonb, 'k')", VALID
    )
    assert await conn.fetchval("SELECT schema_version FROM jobs WHERE id = $1", job_id) == 2


async def test_q26_valid_payload_at_the_size_limit_is_accepted(connect: Connect) -> None:
    conn = await connect()
    limit = await conn.fetchval("SELECT payload_max_bytes()")
    body = {**msgspec.to_builtins(xp_payload()), "reason": ""}

    async def rendered_bytes(payload: dict[str, object]) -> int:
        # jsonb's rendering, which the limit counts, differs from msgspec's compact text.
        text = msgspec.json.encode(payload).decode()
        return len((await conn.fetchval("SELECT $1::jsonb::text", text)).encode())

    padded = {**body, "reason": "r" * (limit - await rendered_bytes(body))}
    text = msgspec.json.encode(padded).decode()
    assert await rendered_bytes(padded) == limit
    async with conn.transaction():
        await conn.execute("SELECT enqueue_job('api.xp.grant', $1::jsonb, 'at-limit')", text)
    over = {**padded, "reason": padded["reason"] + "r"}
    with pytest.raises(asyncpg.PostgresError, match="more than the limit"):
        await conn.execute(
            "SELECT enqueue_job('api.xp.grant', $1::jsonb, 'over-limit')",
            msgspec.json.encode(over).decode(),
        )
