"""Q01/Q02: the job identity, its queue row and the effect receipt commit or roll back with the
business write."""

from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_api.queue.enqueue import enqueue_job
from genji_queue.errors import NotInTransactionError, UnknownQueueEventError, translate
from genji_queue.receipts import effect_receipt_begin, effect_receipt_complete
from genji_sdk import ClaimToken, UnknownEventError

from tests.support.queue_helpers import XP_EVENT, claim_next, enqueue_xp, xp_payload
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

DOMAIN_TABLE = (
    "CREATE TABLE xp_ledger (grant_id int PRIMARY KEY, user_id int NOT NULL, amount int NOT NULL)"
)


class Boom(Exception):
    pass


async def _counts(conn: asyncpg.Connection) -> tuple[int, int, int, int, int]:
    """Domain rows, job identities, queue rows, queue log rows, effect receipts."""
    row = await conn.fetchrow(
        """SELECT (SELECT count(*) FROM xp_ledger), (SELECT count(*) FROM jobs),
                  (SELECT count(*) FROM pgqueuer), (SELECT count(*) FROM pgqueuer_log),
                  (SELECT count(*) FROM effect_receipts)"""
    )
    assert row is not None
    return tuple(row)  # type: ignore[return-value]


async def _grant(conn: asyncpg.Connection, grant_id: int, key: str) -> None:
    await conn.execute("INSERT INTO xp_ledger VALUES ($1, 7, 5)", grant_id)
    await enqueue_job(
        conn,
        event_name=XP_EVENT,
        payload=xp_payload(user_id=7, grant_id=grant_id),
        event_key=key,
        entity_key="user:7",
    )


async def test_q01_rolled_back_business_transaction_leaves_nothing(connect: Connect) -> None:
    business, observer = await connect(), await connect()
    await business.execute(DOMAIN_TABLE)

    with pytest.raises(Boom):
        async with business.transaction():
            await _grant(business, 1, "xp:1")
            raise Boom

    assert await _counts(observer) == (0, 0, 0, 0, 0)


async def test_q01_committed_business_transaction_keeps_all_three(connect: Connect) -> None:
    business, observer = await connect(), await connect()
    await business.execute(DOMAIN_TABLE)
    async with business.transaction():
        await _grant(business, 1, "xp:1")
    # A new job's log begins at its first claim: enqueue writes no log row.
    assert await _counts(observer) == (1, 1, 1, 0, 0)


async def test_q01_uncommitted_enqueue_is_invisible_to_other_connections(connect: Connect) -> None:
    business, observer = await connect(), await connect()
    await business.execute(DOMAIN_TABLE)
    async with business.transaction():
        await _grant(business, 1, "xp:1")
        assert await _counts(observer) == (0, 0, 0, 0, 0)


async def _claimed_job(conn: asyncpg.Connection) -> tuple[UUID, ClaimToken]:
    """A committed job a worker has claimed: its handler asks for a business transaction."""
    job = await enqueue_xp(conn, "xp:handler", user_id=8, grant_id=99)
    claimed = await claim_next(conn, uuid4())
    assert claimed is not None and claimed.queue_manager_id is not None
    return job.id, ClaimToken(claimed.id, claimed.queue_manager_id, claimed.updated)


async def _grant_as_effect(conn: asyncpg.Connection, job_id: UUID, claim: ClaimToken) -> None:
    """The handler's mutation: receipt, domain write and follow-up job in one transaction."""
    receipt = await effect_receipt_begin(conn, claim, job_id, "xp", "user:7:+5")
    assert receipt.fresh
    await _grant(conn, 1, "xp:1")
    await effect_receipt_complete(conn, job_id, "xp", {"grant_id": 1})


async def test_q01_rolled_back_effect_transaction_leaves_no_receipt(connect: Connect) -> None:
    business, observer = await connect(), await connect()
    await business.execute(DOMAIN_TABLE)
    job_id, claim = await _claimed_job(business)
    before = await _counts(observer)

    with pytest.raises(Boom):
        async with business.transaction():
            await _grant_as_effect(business, job_id, claim)
            raise Boom

    assert await _counts(observer) == before
    assert before[4] == 0


async def test_q01_committed_effect_transaction_keeps_exactly_one_receipt(
    connect: Connect,
) -> None:
    business, observer = await connect(), await connect()
    await business.execute(DOMAIN_TABLE)
    job_id, claim = await _claimed_job(business)
    ledger, jobs, queue, log, receipts = await _counts(observer)

    async with business.transaction():
        await _grant_as_effect(business, job_id, claim)

    assert await _counts(observer) == (ledger + 1, jobs + 1, queue + 1, log, receipts + 1)
    assert (
        await observer.fetchval(
            "SELECT count(*) FROM effect_receipts WHERE job_id = $1 AND completed_at IS NOT NULL",
            job_id,
        )
        == 1
    )


async def test_q02_failing_queue_insert_rolls_back_the_business_write(connect: Connect) -> None:
    business, observer = await connect(), await connect()
    await business.execute(DOMAIN_TABLE)
    # A real failure inside the queue insert, raised by PostgreSQL itself.
    await business.execute(
        """CREATE FUNCTION refuse_queue_insert() RETURNS trigger LANGUAGE plpgsql AS
           $$ BEGIN RAISE EXCEPTION 'queue storage unavailable'; END $$;
           CREATE TRIGGER refuse_queue_insert BEFORE INSERT ON pgqueuer
           FOR EACH ROW EXECUTE FUNCTION refuse_queue_insert();"""
    )

    with pytest.raises(asyncpg.RaiseError, match="queue storage unavailable"):
        async with business.transaction():
            await _grant(business, 1, "xp:1")

    assert await _counts(observer) == (0, 0, 0, 0, 0)


async def test_q02_unknown_event_rolls_back_the_business_write(connect: Connect) -> None:
    business, observer = await connect(), await connect()
    await business.execute(DOMAIN_TABLE)
    with pytest.raises(asyncpg.PostgresError) as caught:
        async with business.transaction():
            await business.execute("INSERT INTO xp_ledger VALUES (1, 7, 5)")
            await business.fetch("SELECT * FROM enqueue_job('api.nope', '{}', 'k')")
    assert isinstance(translate(caught.value), UnknownQueueEventError)
    assert await _counts(observer) == (0, 0, 0, 0, 0)


async def test_q02_python_registry_rejects_unknown_event_before_the_database(
    connect: Connect,
) -> None:
    conn = await connect()
    async with conn.transaction():
        with pytest.raises(UnknownEventError):
            await enqueue_job(
                conn, event_name="api.nope", payload=xp_payload(), event_key="k", entity_key=None
            )


async def test_enqueue_refuses_to_run_outside_a_transaction(connect: Connect) -> None:
    conn = await connect()
    with pytest.raises(NotInTransactionError):
        await enqueue_job(
            conn, event_name=XP_EVENT, payload=xp_payload(), event_key="k", entity_key=None
        )
    assert await conn.fetchval("SELECT count(*) FROM jobs") == 0


async def test_enqueue_wakes_listeners_only_at_commit(connect: Connect) -> None:
    business, listener = await connect(), await connect()
    seen: list[str] = []
    await listener.add_listener("ch_pgqueuer", lambda *args: seen.append(args[3]))
    async with business.transaction():
        await enqueue_job(
            business, event_name=XP_EVENT, payload=xp_payload(), event_key="k", entity_key=None
        )
        await listener.execute("SELECT 1")
        assert seen == []
    await listener.execute("SELECT pg_sleep(0.05)")
    assert any('"table_changed_event"' in payload for payload in seen)
