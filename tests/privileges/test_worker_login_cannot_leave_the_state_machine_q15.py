"""Q15: connected as the real worker login, the only way to change queue state is a legal
transition through the functions that own it. Every statement here is one a misbehaving or
compromised worker could try; each is refused or changes nothing."""

import asyncio
from datetime import timedelta
from uuid import uuid4

import asyncpg
import pytest
from genji_queue.begin import Begin, queue_begin
from genji_queue.claim import queue_claim
from genji_queue.complete import queue_complete, queue_complete_many
from genji_queue.heartbeat import queue_heartbeat
from genji_queue.hold import queue_hold
from genji_queue.release import queue_release
from genji_queue.retry import queue_fail, queue_retry
from genji_queue.workers import queue_worker_beat, queue_worker_stopped
from genji_worker.claims import claim_of
from pgqueuer.models import Job

from tests.support.queue_helpers import (
    XP_EVENT,
    claim_next,
    enqueue_xp,
    register_worker,
    sample_json,
)
from tests.support.testdb import WORKER_ROLE, Connect

pytestmark = pytest.mark.queue

OCR_EVENT = "completion.ocr.requested"
WAIT = timedelta(milliseconds=200)


async def _snapshot(owner: asyncpg.Connection) -> list[tuple[object, ...]]:
    queue = await owner.fetch(
        "SELECT id, status::text, queue_manager_id, updated, heartbeat, attempts FROM pgqueuer ORDER BY id"
    )
    logs = await owner.fetch(
        "SELECT id, job_id, status::text, created FROM pgqueuer_log ORDER BY id"
    )
    return [tuple(r) for r in queue] + [tuple(r) for r in logs]


async def _held_job(owner: asyncpg.Connection) -> Job:
    await enqueue_xp(owner, "xp:held")
    job = await claim_next(owner, uuid4())
    assert job is not None
    await owner.execute(
        'SELECT queue_hold($1, $2, $3, \'{"exception_type": "Boom"}\'::jsonb)',
        job.id,
        job.queue_manager_id,
        job.updated,
    )
    return job


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE pgqueuer SET status = 'successful'",
        "UPDATE pgqueuer SET status = 'failed'",
        "UPDATE pgqueuer SET status = 'queued' WHERE status = 'failed'",
        "UPDATE pgqueuer SET status = 'picked', queue_manager_id = gen_random_uuid(), updated = now()",
        "UPDATE pgqueuer SET heartbeat = now() - interval '1 hour'",
        "INSERT INTO pgqueuer_log (id, job_id, status, entrypoint, priority) VALUES (999999, 1, 'queued', 'api.xp.grant', 0)",
        "INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority, created) VALUES (1, 'successful', 'api.xp.grant', 0, 'infinity')",
        "INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority) SELECT 1, 'picked', 'api.xp.grant', 0 FROM generate_series(1, 5)",
        "INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority) SELECT 2, 'picked', 'completion.ocr.requested', 0 FROM generate_series(1, 5)",
        "DELETE FROM pgqueuer_log",
        "UPDATE queue_settings SET max_reclaims = 1000",
        "UPDATE queue_settings SET stale_heartbeat = interval '1 second'",
        "DELETE FROM queue_workers",
        "UPDATE queue_workers SET beat_at = now() - interval '1 day'",
        "SELECT queue_resume_waiters(1)",
        "SELECT queue_prune_logs(interval '0', 1000)",
    ],
    ids=[
        "Q15-set-successful",
        "Q15-set-failed",
        "Q15-unhold",
        "Q15-claim-by-update",
        "Q15-age-heartbeat",
        "Q15-log-with-explicit-id",
        "Q15-log-created-infinity",
        "Q15-forge-picked-rows",
        "Q15-forge-picked-rows-api-job",
        "Q15-delete-logs",
        "Q15-raise-crash-loop-cap",
        "Q15-shorten-stale-threshold",
        "Q15-delete-liveness-rows",
        "Q15-age-liveness-rows",
        "Q15-wake-waiters",
        "Q15-prune-logs",
    ],
)
async def test_direct_writes_are_refused_and_change_nothing(
    connect: Connect, statement: str
) -> None:
    owner = await connect()
    await _held_job(owner)
    await enqueue_xp(owner, "xp:queued", grant_id=2)
    await owner.execute(
        "SELECT enqueue_job($1, $2::jsonb, 'ocr:1')", OCR_EVENT, sample_json(OCR_EVENT)
    )
    before = await _snapshot(owner)
    worker = await connect("worker")
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="permission denied"):
        await worker.execute(statement)
    assert await _snapshot(owner) == before


async def test_q15_the_crash_loop_cap_is_not_the_callers(connect: Connect) -> None:
    worker = await connect("worker")
    with pytest.raises(asyncpg.UndefinedFunctionError):
        await worker.execute(
            "SELECT queue_begin(1, gen_random_uuid(), now(), 1000, interval '1 second')"
        )
    # The start gate runs inside queue_claim; the worker cannot skip or call it on its own.
    with pytest.raises(asyncpg.InsufficientPrivilegeError):
        await worker.execute("SELECT queue_begin(1, gen_random_uuid(), now(), interval '1 second')")


async def test_q15_worker_claims_bot_jobs_only(connect: Connect) -> None:
    owner = await connect()
    ocr = await owner.fetchval(
        "SELECT job_id FROM enqueue_job($1, $2::jsonb, 'ocr:1')", OCR_EVENT, sample_json(OCR_EVENT)
    )
    await enqueue_xp(owner, "xp:1")
    worker = await connect("worker")
    manager = await register_worker(worker, uuid4())
    claimed = (await queue_claim(worker, manager, [OCR_EVENT, XP_EVENT], 5, 5, WAIT)).jobs
    assert [c.row["entrypoint"] for c in claimed] == [XP_EVENT]
    ocr_row = await owner.fetchrow(
        "SELECT q.status::text, q.queue_manager_id FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id WHERE j.id = $1",
        ocr,
    )
    assert ocr_row is not None and tuple(ocr_row) == ("queued", None)


async def test_q15_worker_cannot_take_over_a_live_claim_early(connect: Connect) -> None:
    owner = await connect()
    await enqueue_xp(owner, "xp:1")
    honest = await connect("worker")
    first = (
        await queue_claim(honest, await register_worker(honest, uuid4()), [XP_EVENT], 1, 2, WAIT)
    ).jobs
    assert len(first) == 1  # gated and allowed to run
    rogue = await connect("worker")
    rogue_manager = await register_worker(rogue, uuid4())
    assert (await queue_claim(rogue, rogue_manager, [XP_EVENT], 1, 2, WAIT)).jobs == []
    # The honest claim still holds: the rogue's attempt neither took it nor counted as a crash.
    assert await queue_begin(owner, claim_of(Job.model_validate(first[0].row)), WAIT) == Begin(
        "run", 0, 0
    )


async def test_q15_liveness_rows_belong_to_their_session(connect: Connect) -> None:
    owner = await connect()
    alive, rogue = await connect("worker"), await connect("worker")
    manager = uuid4()
    assert await queue_worker_beat(alive, manager, "bot", "host-a", 1)
    row_before = await owner.fetchrow("SELECT * FROM queue_workers WHERE manager_id = $1", manager)

    assert not await queue_worker_stopped(rogue, manager)
    assert not await queue_worker_beat(rogue, manager, "bot", "host-b", 2)
    row_after = await owner.fetchrow("SELECT * FROM queue_workers WHERE manager_id = $1", manager)
    assert row_after is not None and dict(row_after) == dict(row_before or {})

    with pytest.raises(asyncpg.InsufficientPrivilegeError):
        await queue_worker_beat(rogue, uuid4(), "api", "host-b", 2)

    # Once its session has ended, a reconnected worker may remove its old row.
    await alive.close()
    await _until_session_gone(owner, row_before["backend_pid"] if row_before else 0)
    assert await queue_worker_stopped(rogue, manager)


async def _until_session_gone(owner: asyncpg.Connection, pid: int) -> None:
    async with asyncio.timeout(5):
        while True:
            if not await owner.fetchval("SELECT queue_session_alive($1)", pid):
                return
            await asyncio.sleep(0.01)


async def test_q15_a_worker_session_cannot_use_another_sessions_claim(connect: Connect) -> None:
    owner = await connect()
    await enqueue_xp(owner, "xp:1")
    honest, rogue = await connect("worker"), await connect("worker")
    (claimed,) = (
        await queue_claim(honest, await register_worker(honest, uuid4()), [XP_EVENT], 1, 2, WAIT)
    ).jobs
    token = claim_of(Job.model_validate(claimed.row))
    await register_worker(rogue, uuid4())
    before = await _snapshot(owner)
    # The token is readable by every worker session; using it is not.
    assert not await queue_complete(rogue, token)
    assert await queue_complete_many(rogue, [token]) == set()
    assert not await queue_retry(rogue, token, timedelta(days=36500), None)
    assert not await queue_hold(rogue, token, None)
    assert not await queue_release(rogue, token, "stolen")
    assert await queue_fail(rogue, token, [WAIT], {"exception_type": "X"}) == "lost"
    assert await queue_heartbeat(rogue, [token]) == {token.queue_job_id}
    assert (await queue_claim(rogue, token.queue_manager_id, [XP_EVENT], 1, 2, WAIT)).jobs == []
    assert await _snapshot(owner) == before
    assert await queue_complete(honest, token)


async def test_q15_worker_cannot_enqueue_a_batch(connect: Connect) -> None:
    owner, worker = await connect(), await connect("worker")
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="permission denied"):
        await worker.fetch(
            "SELECT * FROM enqueue_jobs(ARRAY[$1], ARRAY[$2::jsonb], ARRAY['xp:worker'])",
            XP_EVENT,
            sample_json(XP_EVENT),
        )
    assert await owner.fetchval("SELECT count(*) FROM jobs") == 0
    assert not await owner.fetchval(
        "SELECT has_function_privilege($1, $2::regprocedure, 'EXECUTE')",
        WORKER_ROLE,
        "enqueue_jobs(text[], jsonb[], text[], text[], uuid[], integer[], jsonb)",
    )
