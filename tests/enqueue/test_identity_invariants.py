"""Identity and receipt invariants: one identity means one request, limits fail as GJ003, and
isolation races reach Python as one typed, retryable error."""

import asyncio
from uuid import uuid4

import asyncpg
import msgspec
import pytest
from genji_api.queue.enqueue import enqueue_job
from genji_queue.errors import (
    EventKeyConflictError,
    InvalidJobRequestError,
    RetryTransactionError,
    translate,
)
from genji_queue.receipts import effect_receipt_begin, effect_receipt_complete
from genji_worker.claims import claim_of

from tests.support.queue_helpers import XP_EVENT, claim_next, enqueue_xp, xp_payload
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

XP_JSON = msgspec.json.encode(xp_payload()).decode()
RAW_ENQUEUE = "SELECT * FROM enqueue_job('api.xp.grant', $1::jsonb, $2, $3, NULL, NULL, $4::jsonb)"


async def _enqueue(
    conn: asyncpg.Connection, key: str, entity: str | None, depends_on: object = None
) -> object:
    async with conn.transaction():
        return await enqueue_job(
            conn,
            event_name=XP_EVENT,
            payload=xp_payload(),
            event_key=key,
            entity_key=entity,
            depends_on=depends_on,  # type: ignore[arg-type]
        )


async def test_same_key_with_another_entity_key_is_a_conflict(connect: Connect) -> None:
    conn = await connect()
    await _enqueue(conn, "xp:1", "user:1")
    with pytest.raises(EventKeyConflictError, match="entity key or parent"):
        await _enqueue(conn, "xp:1", "user:2")
    with pytest.raises(EventKeyConflictError, match="entity key or parent"):
        await _enqueue(conn, "xp:1", None)
    assert await conn.fetchval("SELECT count(*) FROM jobs") == 1


async def test_same_key_with_another_parent_is_a_conflict(connect: Connect) -> None:
    conn = await connect()
    parent = await enqueue_xp(conn, "xp:parent", grant_id=9)
    await _enqueue(conn, "xp:child", "user:1", parent.id)
    with pytest.raises(EventKeyConflictError, match="entity key or parent"):
        await _enqueue(conn, "xp:child", "user:1")
    assert (await _enqueue(conn, "xp:child", "user:1", parent.id)) is not None


@pytest.mark.parametrize(
    ("key", "entity", "trace"),
    [
        ("k" * 201, None, "{}"),
        ("k" * 5000, None, "{}"),
        ("k", "e" * 201, "{}"),
        ("k", "e" * 5000, "{}"),
        ("k", "", "{}"),
        ("k", None, "[]"),
        ("k", None, '"traceparent"'),
        ("k", None, "3"),
    ],
    ids=[
        "event-key-201",
        "event-key-5000",
        "entity-key-201",
        "entity-key-5000",
        "entity-key-empty",
        "trace-array",
        "trace-string",
        "trace-number",
    ],
)
async def test_limits_and_shapes_fail_as_invalid_requests(
    connect: Connect, key: str, entity: str | None, trace: str
) -> None:
    conn = await connect()
    with pytest.raises(asyncpg.PostgresError) as caught:
        await conn.fetch(RAW_ENQUEUE, XP_JSON, key, entity, trace)
    assert caught.value.sqlstate == "GJ003"
    assert isinstance(translate(caught.value), InvalidJobRequestError)


async def test_keys_at_the_limit_are_accepted(connect: Connect) -> None:
    conn = await connect()
    row = await conn.fetchrow(RAW_ENQUEUE, XP_JSON, "k" * 200, "e" * 200, "{}")
    assert row is not None and row["created"]


@pytest.mark.parametrize("fingerprint", [None, ""], ids=["null", "empty"])
async def test_a_missing_fingerprint_never_replays_another_request(
    connect: Connect, fingerprint: str | None
) -> None:
    conn = await connect()
    job = await enqueue_xp(conn, "xp:1")
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None
    claim = claim_of(claimed)
    async with conn.transaction():
        receipt = await effect_receipt_begin(conn, claim, job.id, "xp", "user:1:+5")
        assert receipt.fresh
        await effect_receipt_complete(conn, job.id, "xp", {"granted": 5})
    with pytest.raises(InvalidJobRequestError, match="fingerprint"):
        async with conn.transaction():
            await effect_receipt_begin(conn, claim, job.id, "xp", fingerprint)  # type: ignore[arg-type]


@pytest.mark.parametrize("isolation", ["repeatable_read", "serializable"])
async def test_isolation_races_are_one_typed_retryable_error(
    connect: Connect, isolation: str
) -> None:
    callers = 30
    conns = [await connect() for _ in range(callers)]
    barrier = asyncio.Barrier(callers)
    outcomes: list[str] = []

    async def enqueue(conn: asyncpg.Connection) -> object:
        first = True
        while True:
            try:
                async with conn.transaction(isolation=isolation):
                    if first:
                        first = False
                        await barrier.wait()
                    return await enqueue_job(
                        conn,
                        event_name=XP_EVENT,
                        payload=xp_payload(),
                        event_key="xp:race",
                        entity_key="user:1",
                    )
            except RetryTransactionError:
                outcomes.append("retry")

    jobs = await asyncio.wait_for(asyncio.gather(*(enqueue(c) for c in conns)), 60)
    assert len({job.id for job in jobs}) == 1  # type: ignore[attr-defined]
    assert await conns[0].fetchval("SELECT count(*) FROM jobs") == 1
    assert outcomes, "the race did not happen; the test proves nothing"
