"""enqueue_jobs: one call with the outcome of one enqueue_job per item, in order.

Equivalence is checked on the rows themselves: the same batch is enqueued once through
enqueue_jobs and once item by item, each in a transaction that is then rolled back, and every
column of public.jobs, pgqueuer and pgqueuer_log must match once ids and times are named by
creation order."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
import pytest
from genji_api.queue.enqueue import JobRequest, enqueue_jobs
from genji_devstack.payload_samples import SAMPLES
from genji_queue import enqueue, enqueue_batch
from genji_queue.enqueue import Enqueued
from genji_queue.enqueue_batch import BatchItem
from genji_queue.errors import (
    EventKeyConflictError,
    InvalidJobRequestError,
    NotInTransactionError,
    RetryTransactionError,
    UnknownQueueEventError,
)

from tests.support.harness import eventually
from tests.support.queue_helpers import XP_EVENT, enqueue_xp, xp_payload
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

OCR_EVENT = "completion.ocr.requested"
NEWSFEED_EVENT = "api.newsfeed.create"
TRACE = {"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "x-a": "b"}
Outcome = list[tuple[str, str, bool]]
Snapshot = dict[str, list[dict[str, Any]]]


def xp_json(grant_id: int, user_id: int = 1, amount: int = 5) -> str:
    payload = xp_payload(user_id=user_id, grant_id=grant_id, amount=amount)
    return msgspec.json.encode(payload).decode()


def sample_json(event: str) -> str:
    return msgspec.json.encode(SAMPLES[event]).decode()


async def _names(conn: asyncpg.Connection, known: dict[UUID, str]) -> dict[UUID, str]:
    """`known`, plus a name in creation (event_seq) order for every other job."""
    names = dict(known)
    for row in await conn.fetch("SELECT id FROM jobs ORDER BY event_seq NULLS FIRST, id"):
        names.setdefault(row["id"], f"job{len(names)}")
    return names


def _without(row: asyncpg.Record, *drop: str) -> dict[str, Any]:
    return {k: v for k, v in dict(row).items() if k not in drop}


async def snapshot(conn: asyncpg.Connection, names: dict[UUID, str]) -> Snapshot:
    """Every row of the three tables, ids and times replaced by names."""
    jobs = await conn.fetch("SELECT * FROM jobs ORDER BY event_seq NULLS FIRST, id")
    queue_names = {row["queue_job_id"]: f"q:{names[row['id']]}" for row in jobs}
    # Creation order of ids and sequence numbers is what claims and entity ordering read.
    ranks = {row["id"]: rank for rank, row in enumerate(jobs)}

    def envelope(data: bytes) -> bytes:
        for job_id, name in names.items():
            data = data.replace(str(job_id).encode(), name.encode())
        return data

    queue = await conn.fetch("SELECT * FROM pgqueuer ORDER BY id")
    logs = await conn.fetch("SELECT * FROM pgqueuer_log ORDER BY id")
    return {
        "jobs": [
            {
                **_without(row, "id", "created_at", "queue_job_id", "event_seq", "depends_on"),
                "id": names[row["id"]],
                "queue_job_id": queue_names[row["queue_job_id"]],
                "depends_on": names.get(row["depends_on"]),
                "rank": ranks[row["id"]],
            }
            for row in jobs
        ],
        "queue": [
            {
                **_without(
                    row, "id", "created", "updated", "heartbeat", "execute_after", "payload"
                ),
                "id": queue_names[row["id"]],
                "payload": envelope(row["payload"]),
                "times": {
                    row[c] == row["created"] for c in ("updated", "heartbeat", "execute_after")
                },
            }
            for row in queue
        ],
        "log": [
            {**_without(row, "id", "created", "job_id"), "job_id": queue_names[row["job_id"]]}
            for row in logs
        ],
    }


async def rolled_back(
    conn: asyncpg.Connection,
    work: Callable[[], Awaitable[list[Enqueued]]],
    known: dict[UUID, str],
) -> tuple[Outcome, Snapshot]:
    """What `work` returns and leaves in the tables, in a transaction that is then undone."""
    transaction = conn.transaction()
    await transaction.start()
    try:
        results = await work()
        names = await _names(conn, known)
        outcome = [(names[r.job.id], r.job.status, r.created) for r in results]
        return outcome, await snapshot(conn, names)
    finally:
        await transaction.rollback()


async def one_by_one(
    conn: asyncpg.Connection, items: list[BatchItem], trace: dict[str, str]
) -> list[Enqueued]:
    return [
        await enqueue.enqueue_job_raw(
            conn,
            event_name=item.event_name,
            payload_json=item.payload_json,
            event_key=item.event_key,
            entity_key=item.entity_key,
            depends_on=item.depends_on,
            schema_version=item.schema_version,
            trace=trace,
        )
        for item in items
    ]


def new_keys(parent: UUID) -> list[BatchItem]:
    """Five items of three events, each a new key: entity keys, a parent, an explicit version."""
    return [
        BatchItem(XP_EVENT, xp_json(1), "xp:1", "user:1"),
        BatchItem(OCR_EVENT, sample_json(OCR_EVENT), "ocr:1", "completion:1"),
        BatchItem(NEWSFEED_EVENT, sample_json(NEWSFEED_EVENT), "feed:1"),
        BatchItem(XP_EVENT, xp_json(2), "xp:2", "user:1", depends_on=parent, schema_version=1),
        BatchItem(XP_EVENT, xp_json(3, user_id=2), "xp:3", "user:2"),
    ]


async def test_a_batch_writes_the_rows_of_one_enqueue_per_item(connect: Connect) -> None:
    conn = await connect()
    parent = await enqueue_xp(conn, "xp:parent", grant_id=900)
    existing = await enqueue_xp(conn, "xp:existing", grant_id=901)
    known = {parent.id: "parent", existing.id: "existing"}
    *first, last = new_keys(parent.id)
    items = [
        *first,
        BatchItem(XP_EVENT, xp_json(1), "xp:1", "user:1"),  # an earlier item's key
        BatchItem(XP_EVENT, xp_json(901), "xp:existing", "user:1"),  # a committed job's key
        last,
    ]

    batch = await rolled_back(
        conn, lambda: enqueue_batch.enqueue_jobs(conn, items, trace=TRACE), known
    )
    single = await rolled_back(conn, lambda: one_by_one(conn, items, TRACE), known)

    assert batch == single
    outcome, rows = batch
    assert outcome == [
        ("job2", "queued", True),
        ("job3", "queued", True),
        ("job4", "queued", True),
        ("job5", "queued", True),
        ("job2", "queued", False),
        ("existing", "queued", False),
        ("job6", "queued", True),
    ]
    assert len(rows["queue"]) == 7  # two committed, five new
    assert rows["log"] == []  # a job's log begins at its first claim


async def test_a_batch_of_new_keys_writes_the_rows_of_one_enqueue_per_item(
    connect: Connect,
) -> None:
    """The common batch, which one statement decides and writes, against one enqueue_job per
    item: parent, explicit version, entity keys, envelope and trace included."""
    conn = await connect()
    parent = await enqueue_xp(conn, "xp:parent", grant_id=900)
    known = {parent.id: "parent"}
    items = new_keys(parent.id)

    batch = await rolled_back(
        conn, lambda: enqueue_batch.enqueue_jobs(conn, items, trace=TRACE), known
    )
    single = await rolled_back(conn, lambda: one_by_one(conn, items, TRACE), known)

    assert batch == single
    outcome, rows = batch
    assert outcome == [(f"job{n}", "queued", True) for n in range(1, 6)]
    assert len(rows["queue"]) == 6  # the parent and five new


async def test_an_empty_batch_enqueues_nothing(connect: Connect) -> None:
    conn = await connect()
    async with conn.transaction():
        assert await enqueue_batch.enqueue_jobs(conn, []) == []
    assert await conn.fetchval("SELECT count(*) FROM jobs") == 0


async def _counts(conn: asyncpg.Connection) -> tuple[int, int, int]:
    row = await conn.fetchrow(
        "SELECT (SELECT count(*) FROM jobs), (SELECT count(*) FROM pgqueuer), "
        "(SELECT count(*) FROM pgqueuer_log)"
    )
    assert row is not None
    return row[0], row[1], row[2]


# (case, items, error, message): every item before the failing one is fine, or fails first.
FAILING_BATCHES: list[tuple[str, list[BatchItem], type[Exception], str]] = [
    (
        "Q02-duplicate-in-batch-other-payload",
        [
            BatchItem(XP_EVENT, xp_json(1), "xp:1"),
            BatchItem(XP_EVENT, xp_json(1, amount=9), "xp:1"),
        ],
        EventKeyConflictError,
        "different payload",
    ),
    (
        "Q02-duplicate-in-batch-other-entity",
        [
            BatchItem(XP_EVENT, xp_json(1), "xp:1", "user:1"),
            BatchItem(XP_EVENT, xp_json(1), "xp:1", "user:2"),
        ],
        EventKeyConflictError,
        "different entity key or parent",
    ),
    (
        "Q02-existing-key-other-payload",
        [
            BatchItem(XP_EVENT, xp_json(7), "xp:7"),
            BatchItem(XP_EVENT, xp_json(1, amount=9), "xp:committed"),
        ],
        EventKeyConflictError,
        "different payload",
    ),
    (
        "Q02-bad-payload",
        [BatchItem(XP_EVENT, xp_json(7), "xp:7"), BatchItem(XP_EVENT, '{"grant_id": "x"}', "xp:8")],
        InvalidJobRequestError,
        r"payload for api.xp.grant is invalid: \$.grant_id: expected integer, got string",
    ),
    (
        "Q02-unsupported-version",
        [
            BatchItem(XP_EVENT, xp_json(7), "xp:7", schema_version=1),
            BatchItem(XP_EVENT, xp_json(8), "xp:8", schema_version=99),
        ],
        InvalidJobRequestError,
        r"payload for api.xp.grant is invalid: version 99 is not supported \(supported: 1\)",
    ),
    (
        "Q02-unknown-event",
        [BatchItem(XP_EVENT, xp_json(7), "xp:7"), BatchItem("api.nope", "{}", "k")],
        UnknownQueueEventError,
        "unknown event name 'api.nope'",
    ),
    (
        "Q02-empty-key",
        [BatchItem(XP_EVENT, xp_json(7), "xp:7"), BatchItem(XP_EVENT, xp_json(8), "")],
        InvalidJobRequestError,
        "event_key is required",
    ),
    (
        "Q02-unknown-parent",
        [BatchItem(XP_EVENT, xp_json(7), "xp:7", depends_on=UUID(int=1))],
        InvalidJobRequestError,
        "depends_on job 00000000-0000-0000-0000-000000000001 does not exist",
    ),
    (
        "Q02-conflict-before-invalid",
        [
            BatchItem(XP_EVENT, xp_json(1, amount=9), "xp:committed"),
            BatchItem("api.nope", "{}", "k"),
        ],
        EventKeyConflictError,
        "different payload",
    ),
    (
        "Q02-invalid-before-conflict",
        [
            BatchItem("api.nope", "{}", "k"),
            BatchItem(XP_EVENT, xp_json(1, amount=9), "xp:committed"),
        ],
        UnknownQueueEventError,
        "unknown event name",
    ),
]


async def test_q02_any_failing_item_enqueues_nothing_and_raises_its_error(
    connect: Connect,
) -> None:
    conn, observer = await connect(), await connect()
    await enqueue_xp(conn, "xp:committed", grant_id=1)
    before = await _counts(observer)
    for case, items, error, message in FAILING_BATCHES:
        with pytest.raises(error, match=message):
            async with conn.transaction():
                await conn.execute("CREATE TABLE business_row (id int)")
                await enqueue_batch.enqueue_jobs(conn, items)
        assert await _counts(observer) == before, case
        assert await observer.fetchval("SELECT to_regclass('business_row')") is None, case


async def test_q01_a_failed_commit_drops_the_whole_batch(connect: Connect) -> None:
    conn, observer = await connect(), await connect()
    await conn.execute(
        "CREATE TABLE parent (id int PRIMARY KEY);"
        "CREATE TABLE child (parent_id int REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)"
    )
    items = [BatchItem(XP_EVENT, xp_json(n), f"xp:{n}", f"user:{n}") for n in range(5)]
    with pytest.raises(asyncpg.ForeignKeyViolationError):
        async with conn.transaction():
            assert len(await enqueue_batch.enqueue_jobs(conn, items)) == 5
            await conn.execute("INSERT INTO child VALUES (1)")  # refused only at COMMIT
    assert await _counts(observer) == (0, 0, 0)


async def test_q01_a_committed_batch_keeps_every_job(connect: Connect) -> None:
    conn, observer = await connect(), await connect()
    items = [BatchItem(XP_EVENT, xp_json(n), f"xp:{n}", f"user:{n}") for n in range(5)]
    async with conn.transaction():
        await enqueue_batch.enqueue_jobs(conn, items)
        assert await _counts(observer) == (0, 0, 0)
    assert await _counts(observer) == (5, 5, 0)


async def test_arrays_of_different_lengths_are_refused(connect: Connect) -> None:
    conn = await connect()
    with pytest.raises(asyncpg.PostgresError, match="one event name, payload and event key"):
        await conn.fetch(
            "SELECT * FROM enqueue_jobs(ARRAY['api.xp.grant'], ARRAY[]::jsonb[], ARRAY['k'])"
        )


@pytest.mark.parametrize(
    ("event_key", "payload", "message"),
    [
        pytest.param(None, xp_json(2), "event_key is required", id="null-event-key"),
        pytest.param("xp:2", None, "must be a JSON object", id="null-payload"),
    ],
)
async def test_a_null_element_next_to_a_valid_item_is_refused(
    connect: Connect, event_key: str | None, payload: str | None, message: str
) -> None:
    """A NULL the checks cannot answer for refuses its item, as enqueue_job refuses it."""
    conn = await connect()
    with pytest.raises(asyncpg.PostgresError, match=message) as refused:
        async with conn.transaction():
            await conn.fetch(
                "SELECT * FROM enqueue_jobs($1::text[], $2::jsonb[], $3::text[])",
                [XP_EVENT, XP_EVENT],
                [xp_json(1), payload],
                ["xp:1", event_key],
            )
    assert refused.value.sqlstate == "GJ003"
    assert await _counts(conn) == (0, 0, 0)


async def _waiting_on_a_lock(observer: asyncpg.Connection, pid: int) -> bool:
    return bool(
        await observer.fetchval(
            "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $1", pid
        )
    )


async def test_a_refused_item_raises_before_any_later_item_waits_for_its_entity(
    connect: Connect,
) -> None:
    """As one enqueue_job per item: the first item's refusal comes before the second item's
    entity lock, which a concurrent transaction holds."""
    holder, batch = await connect(), await connect()
    holding = holder.transaction()
    await holding.start()
    await enqueue.enqueue_job_raw(
        holder,
        event_name=XP_EVENT,
        payload_json=xp_json(1),
        event_key="xp:held",
        entity_key="user:held",
    )
    items = [
        BatchItem(XP_EVENT, '{"grant_id": "x"}', "xp:refused"),
        BatchItem(XP_EVENT, xp_json(2), "xp:2", "user:held"),
    ]
    try:
        with pytest.raises(InvalidJobRequestError, match="grant_id"):
            async with batch.transaction():
                await asyncio.wait_for(enqueue_batch.enqueue_jobs(batch, items), 5)
    finally:
        await holding.rollback()


async def test_a_trace_that_is_no_object_is_refused_as_enqueue_job_refuses_it(
    connect: Connect,
) -> None:
    conn = await connect()
    for trace in ("[]", '"x"', "null"):
        with pytest.raises(
            asyncpg.PostgresError, match=r"trace for api\.xp\.grant must be"
        ) as refused:
            await conn.fetch(
                "SELECT * FROM enqueue_jobs($1::text[], $2::jsonb[], $3::text[], p_trace => $4::jsonb)",
                [XP_EVENT],
                [xp_json(1)],
                ["xp:1"],
                trace,
            )
        assert refused.value.sqlstate == "GJ003", trace
    assert await _counts(conn) == (0, 0, 0)


@pytest.mark.parametrize("other_ends", ["commit", "rollback"])
async def test_a_batch_waits_for_a_concurrent_enqueue_of_its_key_then_resolves_to_it_or_takes_it(
    connect: Connect, other_ends: str
) -> None:
    first, batch, observer = await connect(), await connect(), await connect()
    racing = first.transaction()
    await racing.start()
    other = await enqueue.enqueue_job_raw(
        first, event_name=XP_EVENT, payload_json=xp_json(2), event_key="xp:race"
    )

    async def enqueue_batch_of_two() -> list[Enqueued]:
        async with batch.transaction():
            return await enqueue_batch.enqueue_jobs(
                batch,
                [
                    BatchItem(XP_EVENT, xp_json(1), "xp:mine"),
                    BatchItem(XP_EVENT, xp_json(2), "xp:race"),
                ],
            )

    task = asyncio.create_task(enqueue_batch_of_two())
    await eventually(lambda: _waiting_on_a_lock(observer, batch.get_server_pid()), 5, "the wait")
    await (racing.commit() if other_ends == "commit" else racing.rollback())
    mine, race = await asyncio.wait_for(task, 5)
    assert mine.created
    if other_ends == "commit":
        assert (race.job.id, race.created) == (other.job.id, False)
    else:
        assert race.created and race.job.id != other.job.id
    assert await _counts(observer) == (2, 2, 0)


@pytest.mark.parametrize("isolation", ["repeatable_read", "serializable"])
async def test_a_snapshot_that_does_not_move_resolves_what_it_sees_and_must_retry_the_rest(
    connect: Connect, isolation: str
) -> None:
    """A key with a job the snapshot sees resolves to it, as enqueue_job's would; one committed
    after the snapshot is a serialization failure (ON CONFLICT's), not an endless retry."""
    batch, other = await connect(), await connect()
    seen = await enqueue_xp(other, "xp:seen", grant_id=2)
    async with batch.transaction(isolation=isolation):
        await batch.fetchval("SELECT count(*) FROM jobs")  # takes the snapshot
        async with other.transaction():
            await enqueue.enqueue_job_raw(
                other, event_name=XP_EVENT, payload_json=xp_json(3), event_key="xp:race"
            )
        [resolved] = await enqueue_batch.enqueue_jobs(
            batch, [BatchItem(XP_EVENT, xp_json(2), "xp:seen", "user:1")]
        )
        assert (resolved.job.id, resolved.created) == (seen.id, False)
        with pytest.raises(RetryTransactionError):
            await asyncio.wait_for(
                enqueue_batch.enqueue_jobs(
                    batch,
                    [
                        BatchItem(XP_EVENT, xp_json(4), "xp:new"),
                        BatchItem(XP_EVENT, xp_json(3), "xp:race"),
                    ],
                ),
                10,
            )


async def test_entity_keys_are_locked_until_commit_in_item_order(connect: Connect) -> None:
    batch, later, observer = await connect(), await connect(), await connect()
    holding = batch.transaction()
    await holding.start()
    items = [BatchItem(XP_EVENT, xp_json(n), f"xp:{n}", f"user:{n % 2}") for n in range(4)]
    await enqueue_batch.enqueue_jobs(batch, items)

    async def enqueue_same_entity() -> Enqueued:
        async with later.transaction():
            return await enqueue.enqueue_job_raw(
                later,
                event_name=XP_EVENT,
                payload_json=xp_json(9),
                event_key="xp:9",
                entity_key="user:1",
            )

    task = asyncio.create_task(enqueue_same_entity())
    await eventually(lambda: _waiting_on_a_lock(observer, later.get_server_pid()), 5, "the wait")
    await holding.commit()
    await asyncio.wait_for(task, 5)
    seqs = await observer.fetch("SELECT event_key FROM jobs ORDER BY event_seq")
    assert [row["event_key"] for row in seqs] == ["xp:0", "xp:1", "xp:2", "xp:3", "xp:9"]


async def test_the_api_building_block_takes_sdk_payloads_in_the_callers_transaction(
    connect: Connect,
) -> None:
    conn = await connect()
    requests = [
        JobRequest(xp_payload(grant_id=1), "xp:1", "user:1"),
        JobRequest(SAMPLES[OCR_EVENT], "ocr:1", None),
        JobRequest(xp_payload(grant_id=1), "xp:1", "user:1"),
    ]
    with pytest.raises(NotInTransactionError):
        await enqueue_jobs(conn, requests)
    async with conn.transaction():
        assert await enqueue_jobs(conn, []) == []
        first, ocr, again = await enqueue_jobs(conn, requests, trace={"X-Request-Id": "r1"})
    assert again == first and first.status == ocr.status == "queued"
    stored = await conn.fetchval(
        "SELECT convert_from(q.payload, 'UTF8')::jsonb FROM pgqueuer q "
        "JOIN jobs j ON j.queue_job_id = q.id WHERE j.id = $1",
        ocr.id,
    )
    assert json.loads(stored)["trace"] == {"x-request-id": "r1"}
    assert await _counts(conn) == (2, 2, 0)
