"""Every `genji-jobs` command that takes a job takes what the operator has in hand: the public
UUID, a unique prefix of it (8 hex digits or more, as the stand-in's report prints) or the queue
id the worker logs print. An ambiguous prefix exits 7 and lists a bounded set of candidates."""

from __future__ import annotations

import json
from uuid import UUID

import asyncpg
import msgspec
import pytest
from genji_queue.enqueue import enqueue_job_raw
from genji_sdk.inspection import JobDetails
from genji_sdk.recovery import RecoveryResult

from tests.support.held_jobs import OPERATOR, claim, fail_held
from tests.support.queue_helpers import XP_EVENT, xp_payload
from tests.support.testdb import Connect, Database

from .cli_process import genji_jobs

pytestmark = pytest.mark.queue

TWIN_A = UUID("36a18a00-0000-4000-8000-00000000000a")
TWIN_B = UUID("36a18a00-0000-4000-8000-00000000000b")
LONE = UUID("7f3e9b21-1111-4000-8000-000000000001")


async def _enqueue(conn: asyncpg.Connection, job_id: UUID, user_id: int) -> int:
    """A job with the given public id; returns its queue id."""
    async with conn.transaction():
        await enqueue_job_raw(
            conn,
            event_name=XP_EVENT,
            payload_json=msgspec.json.encode(xp_payload(user_id=user_id)).decode(),
            event_key=f"xp:ref:{job_id}",
            entity_key=f"user:{user_id}",
            job_id=job_id,
        )
    queue_id = await conn.fetchval("SELECT queue_job_id FROM jobs WHERE id = $1", job_id)
    assert isinstance(queue_id, int)
    return queue_id


async def _shown(db: Database, reference: str) -> UUID:
    run = await genji_jobs(db, "show", reference, "--json")
    assert run.code == 0, run.stderr
    return msgspec.json.decode(run.stdout, type=JobDetails).id


async def test_show_takes_a_uuid_a_unique_prefix_or_a_queue_id(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    lone_queue_id = await _enqueue(conn, LONE, user_id=1)
    await _enqueue(conn, TWIN_A, user_id=2)
    await _enqueue(conn, TWIN_B, user_id=3)

    assert await _shown(db, str(LONE)) == LONE
    assert await _shown(db, "7f3e9b21") == LONE
    assert await _shown(db, "7F3E9B21-1111") == LONE
    assert await _shown(db, str(lone_queue_id)) == LONE
    assert await _shown(db, "36a18a00-0000-4000-8000-00000000000b") == TWIN_B

    text = await genji_jobs(db, "show", "7f3e9b21")
    assert text.code == 0, text.stderr
    assert str(LONE) in text.stdout

    too_short = await genji_jobs(db, "show", "7f3e9b2")
    assert too_short.code == 2, too_short.stderr
    assert "at least 8 hex" in too_short.stderr
    unknown = await genji_jobs(db, "show", "0123abcd")
    assert unknown.code == 3, unknown.stderr


async def test_an_ambiguous_prefix_exits_7_listing_bounded_candidates(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    await _enqueue(conn, TWIN_A, user_id=2)
    await _enqueue(conn, TWIN_B, user_id=3)

    ambiguous = await genji_jobs(db, "show", "36a18a00")
    assert ambiguous.code == 7, ambiguous.stderr
    assert str(TWIN_A) in ambiguous.stderr and str(TWIN_B) in ambiguous.stderr
    assert ambiguous.stdout == ""
    as_json = await genji_jobs(db, "show", "36a18a00", "--json")
    assert as_json.code == 7
    assert json.loads(as_json.stdout)["extra"] == {
        "candidates": [str(TWIN_A), str(TWIN_B)],
        "more": False,
    }

    many = [UUID(f"5eed5eed-0000-4000-8000-{n:012x}") for n in range(12)]
    for n, job_id in enumerate(many):
        await _enqueue(conn, job_id, user_id=100 + n)
    crowded = await genji_jobs(db, "show", "5eed5eed", "--json")
    assert crowded.code == 7, crowded.stderr
    listed = json.loads(crowded.stdout)["extra"]
    assert (listed["candidates"], listed["more"]) == ([str(u) for u in many[:10]], True)
    assert "matches 10 and more jobs" in crowded.stderr


async def test_retry_takes_a_prefix_and_discard_a_queue_id(db: Database, connect: Connect) -> None:
    conn = await connect()
    twin_queue_id = await _enqueue(conn, TWIN_A, user_id=2)
    await fail_held(conn, await claim(conn))
    await _enqueue(conn, LONE, user_id=1)
    await fail_held(conn, await claim(conn))
    await _enqueue(conn, TWIN_B, user_id=3)

    ambiguous = await genji_jobs(db, "retry", "36a18a00", "--actor", str(OPERATOR))
    assert ambiguous.code == 7, ambiguous.stderr
    assert await conn.fetchval("SELECT count(*) FROM job_actions") == 0

    retried = await genji_jobs(db, "retry", "7f3e9b21", "--actor", str(OPERATOR), "--json")
    assert retried.code == 0, retried.stderr
    assert f"job: {LONE}" in retried.stderr
    result = msgspec.json.decode(retried.stdout, type=RecoveryResult)
    assert (result.job_id, result.outcome) == (LONE, "accepted")

    discarded = await genji_jobs(
        db,
        "discard",
        str(twin_queue_id),
        "--reason",
        "test",
        "--actor",
        str(OPERATOR),
        "--json",
    )
    assert discarded.code == 0, discarded.stderr
    outcome = msgspec.json.decode(discarded.stdout, type=RecoveryResult)
    assert (outcome.job_id, outcome.outcome, outcome.state) == (TWIN_A, "accepted", "discarded")
