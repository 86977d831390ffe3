"""recovery_discard: the operator's audited way out for a held job that blocks others."""

from __future__ import annotations

import json
from uuid import UUID, uuid4

import asyncpg
import pytest
from genji_queue.errors import InvalidJobRequestError, JobNotFoundError
from genji_queue.recovery_discard import recovery_discard
from genji_sdk.recovery import DiscardRequest, OperatorContext, RecoveryResult
from pgqueuer.models import Job

from tests.support.queue_helpers import (
    claimed_ungated,
    enqueue_xp,
    gate_decision,
    queue_row,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

OPERATOR = 1_098_765_432_109_876_543
MALFORMED = json.dumps(
    {"exception_type": "MalformedPayload", "exception_message": "Expected `int` - at `$.user_id`"}
)


async def _hold(conn: asyncpg.Connection, job: Job) -> None:
    """Hold a claimed job the way the worker holds an undecodable payload."""
    held = await conn.fetchval(
        "SELECT queue_hold($1, $2, $3, $4::jsonb)",
        job.id,
        job.queue_manager_id,
        job.updated,
        MALFORMED,
    )
    assert held is True


async def _discard(
    conn: asyncpg.Connection,
    job_id: UUID,
    reason: str = "bad payload",
    key: str = "discard-1",
    generation: int = 0,
) -> RecoveryResult:
    request = DiscardRequest(
        expected_generation=generation,
        idempotency_key=key,
        actor_id=OPERATOR,
        reason=reason,
        context=OperatorContext(source="cli"),
    )
    return await recovery_discard(conn, job_id, request)


async def _held_poison(conn: asyncpg.Connection, entity: int = 3) -> UUID:
    poison = (await enqueue_xp(conn, "xp:poison", user_id=entity, grant_id=1)).id
    await _hold(conn, await claimed_ungated(conn))
    return poison


async def test_q13_discarding_a_held_job_lets_its_entity_run(connect: Connect) -> None:
    conn = await connect()
    poison = await _held_poison(conn)
    later = (await enqueue_xp(conn, "xp:later", user_id=3, grant_id=2)).id
    claim = await claimed_ungated(conn)
    assert await gate_decision(conn, claim) == "deferred"  # the held job blocks its entity

    row = await _discard(conn, poison)
    assert (row.outcome, row.state) == ("accepted", "discarded")
    waiting = await queue_row(conn, later)
    assert waiting is not None and waiting["execute_after"] <= await conn.fetchval("SELECT now()")
    woken = await conn.fetchval(
        """SELECT l.traceback ->> 'exception_message' FROM pgqueuer_log l
           WHERE l.job_id = $1 ORDER BY l.id DESC LIMIT 1""",
        waiting["id"],
    )
    assert woken == f"job {poison} was discarded"
    assert await gate_decision(conn, await claimed_ungated(conn)) == "run"

    assert await queue_row(conn, poison) is None
    status = await conn.fetchrow("SELECT * FROM job_public_status($1)", poison)
    assert (status["status"], status["error_code"]) == ("failed", "Discarded")
    assert "bad payload" in status["error_msg"] and "MalformedPayload" in status["error_msg"]


async def test_discard_is_audited_once_and_repeats_resolve_to_the_first(connect: Connect) -> None:
    conn = await connect()
    poison = await _held_poison(conn)
    first = await _discard(conn, poison)
    again = await _discard(conn, poison, reason="clicked twice")
    assert (again.outcome, again.action_id, again.recorded_outcome) == (
        "duplicate",
        first.action_id,
        "accepted",
    )
    other_key = await _discard(conn, poison, key="discard-2")
    assert (other_key.outcome, other_key.action_id) == ("discarded", None)
    audit = await conn.fetch("SELECT * FROM job_actions WHERE job_id = $1", poison)
    assert len(audit) == 1
    assert (audit[0]["action"], audit[0]["actor_id"], audit[0]["reason"]) == (
        "discard",
        OPERATOR,
        "bad payload",
    )
    detail = json.loads(audit[0]["detail"])
    assert (detail["held_error_code"], detail["resumed"]) == ("MalformedPayload", 0)
    assert detail["context"] == {
        "source": "cli",
        "guild_id": None,
        "channel_id": None,
        "message_id": None,
        "interaction_id": None,
    }
    deleted = await conn.fetchval("SELECT count(*) FROM pgqueuer_log WHERE status = 'deleted'")
    assert deleted == 1


@pytest.mark.parametrize("state", ["queued", "running", "succeeded"])
async def test_discard_refuses_a_job_that_is_not_held(connect: Connect, state: str) -> None:
    conn = await connect()
    job_id = (await enqueue_xp(conn, "xp:1")).id
    if state != "queued":
        claim = await claimed_ungated(conn)
        if state == "succeeded":
            await conn.execute(
                "SELECT queue_complete($1, $2, $3)", claim.id, claim.queue_manager_id, claim.updated
            )
    before = await conn.fetchrow("SELECT * FROM job_public_status($1)", job_id)
    result = await _discard(conn, job_id)
    assert result.outcome == state
    assert await conn.fetchrow("SELECT * FROM job_public_status($1)", job_id) == before
    assert await conn.fetchval("SELECT count(*) FROM job_actions") == 0


async def test_discard_needs_a_known_job_and_a_reason(connect: Connect) -> None:
    conn = await connect()
    with pytest.raises(JobNotFoundError):
        await _discard(conn, uuid4())
    poison = await _held_poison(conn)
    with pytest.raises(InvalidJobRequestError, match="reason"):
        await _discard(conn, poison, reason=" ")
    stale = await _discard(conn, poison, generation=1)
    assert stale.outcome == "stale_generation"
    assert await queue_row(conn, poison) is not None
    assert await conn.fetchval("SELECT count(*) FROM job_actions") == 0


async def test_the_worker_role_cannot_discard(connect: Connect) -> None:
    owner, worker = await connect(), await connect("worker")
    poison = await _held_poison(owner)
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="function recovery_discard"):
        await worker.fetch("SELECT * FROM recovery_discard($1, 0, 'k', 1, 'x')", poison)
    granted = await owner.fetchval(
        "SELECT has_function_privilege('genjishimada_queue_worker',"
        " 'recovery_discard(uuid, integer, text, bigint, text, jsonb)', 'EXECUTE')"
    )
    assert granted is False
    assert await queue_row(owner, poison) is not None


async def test_a_waiting_dependent_of_a_discarded_job_is_held_as_dependency_failed(
    connect: Connect,
) -> None:
    conn = await connect()
    parent = await _held_poison(conn)
    async with conn.transaction():
        child = await conn.fetchval(
            "SELECT job_id FROM enqueue_job('api.xp.grant', $1::jsonb, 'xp:child', 'user:8', $2)",
            json.dumps(
                {
                    "grant_id": 9,
                    "user_id": 8,
                    "amount": 1,
                    "type": "Other",
                    "previous_amount": 0,
                    "new_amount": 1,
                }
            ),
            parent,
        )
    # A held parent already holds a dependent at its gate; this one was deferred earlier,
    # while the parent was still being retried, and now waits out its delay.
    await conn.execute(
        """UPDATE pgqueuer SET execute_after = now() + interval '1 hour'
           WHERE id = (SELECT queue_job_id FROM jobs WHERE id = $1)""",
        child,
    )
    row = await _discard(conn, parent)
    assert row.outcome == "accepted"
    detail = await conn.fetchval(
        "SELECT detail ->> 'resumed' FROM job_actions WHERE id = $1", row.action_id
    )
    assert detail == "1"
    assert await gate_decision(conn, await claimed_ungated(conn)) == "held"
    status = await conn.fetchrow("SELECT * FROM job_public_status($1)", child)
    assert (status["status"], status["error_code"]) == ("failed", "DependencyFailed")
