"""Durable event identity: one job per (event name, event key), conflicts are loud."""

import asyncio
import json

import asyncpg
import pytest
from genji_api.queue.enqueue import enqueue_job
from genji_queue.errors import EventKeyConflictError, InvalidJobRequestError, translate

from tests.support.queue_helpers import XP_EVENT, enqueue_xp, sample_json, xp_payload
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


async def test_same_key_returns_the_existing_job_and_its_status(connect: Connect) -> None:
    conn = await connect()
    first = await enqueue_xp(conn, "xp:1")
    again = await enqueue_xp(conn, "xp:1")
    assert again.id == first.id and again.status == "queued"
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer") == 1


async def test_same_key_with_a_different_payload_raises(connect: Connect) -> None:
    conn = await connect()
    await enqueue_xp(conn, "xp:1", amount=5)
    with pytest.raises(EventKeyConflictError, match="different payload"):
        await enqueue_xp(conn, "xp:1", amount=50)
    assert await conn.fetchval("SELECT count(*) FROM jobs") == 1


async def test_distinct_keys_give_distinct_jobs(connect: Connect) -> None:
    conn = await connect()
    ids = {(await enqueue_xp(conn, f"xp:{n}", grant_id=n)).id for n in range(5)}
    assert len(ids) == 5
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer") == 5


async def test_twenty_concurrent_enqueues_of_one_key_give_one_job(connect: Connect) -> None:
    conns = [await connect() for _ in range(20)]
    barrier = asyncio.Barrier(20)

    async def enqueue(conn):  # type: ignore[no-untyped-def]
        async with conn.transaction():
            await barrier.wait()
            return await enqueue_job(
                conn,
                event_name=XP_EVENT,
                payload=xp_payload(),
                event_key="xp:race",
                entity_key="user:1",
            )

    results = await asyncio.gather(*(enqueue(c) for c in conns))
    assert len({r.id for r in results}) == 1
    check = conns[0]
    assert await check.fetchval("SELECT count(*) FROM jobs") == 1
    assert await check.fetchval("SELECT count(*) FROM pgqueuer") == 1
    assert await check.fetchval("SELECT count(*) FROM pgqueuer_log") == 0


async def test_concurrent_conflicting_payload_raises_for_the_loser_only(connect: Connect) -> None:
    a, b = await connect(), await connect()
    tx = a.transaction()
    await tx.start()
    await enqueue_job(
        a, event_name=XP_EVENT, payload=xp_payload(amount=5), event_key="xp:1", entity_key=None
    )
    loser = asyncio.create_task(enqueue_xp(b, "xp:1", amount=9))
    await asyncio.sleep(0.1)
    assert not loser.done()  # waits for the first transaction instead of failing early
    await tx.commit()
    with pytest.raises(EventKeyConflictError):
        await loser


async def test_a_rolled_back_first_enqueue_lets_the_waiting_one_create_the_job(
    connect: Connect,
) -> None:
    a, b = await connect(), await connect()
    tx = a.transaction()
    await tx.start()
    await enqueue_job(
        a, event_name=XP_EVENT, payload=xp_payload(), event_key="xp:1", entity_key=None
    )
    waiting = asyncio.create_task(enqueue_xp(b, "xp:1"))
    await asyncio.sleep(0.1)
    await tx.rollback()
    created = await waiting
    assert await b.fetchval("SELECT count(*) FROM jobs WHERE id = $1", created.id) == 1


async def test_entity_sequence_is_monotonic_per_entity(connect: Connect) -> None:
    conn = await connect()
    for n in range(3):
        await enqueue_xp(conn, f"xp:{n}", grant_id=n, user_id=4)
    seqs = await conn.fetch(
        "SELECT event_seq FROM jobs WHERE entity_key = 'user:4' ORDER BY created_at, event_seq"
    )
    values = [r["event_seq"] for r in seqs]
    assert values == sorted(values) and len(set(values)) == 3


async def test_a_new_job_of_an_entity_holds_the_entity_lock_until_commit(connect: Connect) -> None:
    producer, other = await connect(), await connect()
    lock = "SELECT pg_try_advisory_xact_lock(hashtextextended('genji.entity:user:7', 0))"
    async with producer.transaction():
        await enqueue_job(
            producer,
            event_name=XP_EVENT,
            payload=xp_payload(user_id=7),
            event_key="xp:locked",
            entity_key="user:7",
        )
        async with other.transaction():
            assert await other.fetchval(lock) is False
    async with other.transaction():
        assert await other.fetchval(lock) is True


async def test_envelope_carries_the_public_uuid_and_only_allowlisted_trace(
    connect: Connect,
) -> None:
    conn = await connect()
    async with conn.transaction():
        job = await enqueue_job(
            conn,
            event_name=XP_EVENT,
            payload=xp_payload(),
            event_key="xp:1",
            entity_key=None,
            trace={
                "traceparent": "00-abc-def-01",
                "Authorization": "Bearer secret",
                "X-API-KEY": "k",
            },
        )
    body = await conn.fetchval("SELECT convert_from(payload, 'UTF8') FROM pgqueuer")
    envelope = json.loads(body)
    assert envelope["job_id"] == str(job.id)
    assert envelope["trace"] == {"traceparent": "00-abc-def-01"}
    assert "secret" not in body


# Keys jsonb must escape, and the rendering of one (quotes, backslash, control, non-ASCII).
AWKWARD_KEYS = ['xp:"quoted"', "xp:back\\slash", "xp:tab\tnew\nline", "xp:é✓"]


async def test_every_enqueue_path_writes_the_envelope_as_jsonb_renders_it(
    connect: Connect,
) -> None:
    """The one statement, the step-by-step path and the batch all write queue_envelope's
    bytes: jsonb reads each back to exactly the same text, and to the fields given."""
    conn = await connect()
    trace = '{"traceparent": "00-abc-def-01"}'
    async with conn.transaction():
        await conn.execute(  # the one statement
            "SELECT enqueue_job('api.xp.grant', $1::jsonb, $2, NULL, NULL, NULL, $3::jsonb)",
            sample_json(XP_EVENT),
            AWKWARD_KEYS[0],
            trace,
        )
        await conn.execute(  # a named job id takes the step-by-step path
            "SELECT enqueue_job('api.xp.grant', $1::jsonb, $2, NULL, NULL, NULL, $3::jsonb, "
            "gen_random_uuid())",
            sample_json(XP_EVENT),
            AWKWARD_KEYS[1],
            trace,
        )
        await conn.execute(
            "SELECT enqueue_jobs(ARRAY['api.xp.grant', 'api.xp.grant'], ARRAY[$1, $1]::jsonb[], "
            "$2::text[], NULL, NULL, NULL, $3::jsonb)",
            sample_json(XP_EVENT),
            AWKWARD_KEYS[2:],
            trace,
        )
    rows = await conn.fetch(
        "SELECT j.id, j.event_key, convert_from(q.payload, 'UTF8') AS body, "
        "convert_from(q.payload, 'UTF8')::jsonb::text AS rendered "
        "FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id ORDER BY q.id"
    )
    assert [row["event_key"] for row in rows] == AWKWARD_KEYS
    for row in rows:
        assert row["body"] == row["rendered"]
        envelope = json.loads(row["body"])
        assert envelope == {
            "trace": json.loads(trace),
            "job_id": str(row["id"]),
            "payload": json.loads(sample_json(XP_EVENT)),
            "event_key": row["event_key"],
            "event_name": XP_EVENT,
            "payload_version": 1,
        }


async def test_sql_caller_cannot_store_credentials_in_trace(connect: Connect) -> None:
    conn = await connect()
    await conn.execute(
        """SELECT enqueue_job('api.xp.grant', $1::jsonb, 'k', NULL, NULL, NULL,
                              '{"cookie": "s=1", "Sentry-Trace": "t"}')""",
        sample_json(XP_EVENT),
    )
    body = await conn.fetchval("SELECT convert_from(payload, 'UTF8') FROM pgqueuer")
    assert "s=1" not in body and '"sentry-trace": "t"' in body


@pytest.mark.parametrize(
    ("payload", "key", "version"),
    [("[]", "k", None), ("{}", "", None), ("{}", "k", 2), ("{}", "k", 0)],
    ids=["array-payload", "empty-key", "future-version", "zero-version"],
)
async def test_invalid_arguments_are_rejected(
    connect: Connect, payload: str, key: str, version: int | None
) -> None:
    conn = await connect()
    with pytest.raises(asyncpg.PostgresError) as caught:
        await conn.fetch(
            "SELECT * FROM enqueue_job('api.xp.grant', $1::jsonb, $2, NULL, NULL, $3)",
            payload,
            key,
            version,
        )
    assert isinstance(translate(caught.value), InvalidJobRequestError)
