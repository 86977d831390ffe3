"""Q13: a held malformed job blocks its entity's later ordered jobs until an operator discards it.

A real worker process holds the poison job as MalformedPayload and keeps deferring the later
job of the same entity behind it; recovery_discard ends the poison job, wakes the waiting one
and it runs.
"""

from __future__ import annotations

import pytest

from tests.support.harness import Stack, eventually

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

OPERATOR = 1_098_765_432_109_876_543


async def test_q13_discarding_a_held_malformed_job_releases_its_entity(stack: Stack) -> None:
    poison = await stack.enqueue("xp:poison", entity="user:3")
    await stack.corrupt_payload(poison, "user_id", "not-a-number")
    later = await stack.enqueue("xp:later", entity="user:3")
    stack.start_worker()

    await stack.until_status(poison, "failed")
    assert (await stack.job(poison))["error_code"] == "MalformedPayload"

    async def deferred_behind_it() -> bool:
        waits = await stack.value(
            """SELECT count(*) FROM pgqueuer_log l JOIN jobs j ON j.queue_job_id = l.job_id
               WHERE j.id = $1 AND l.traceback ->> 'exception_type' = 'AwaitingEarlierEvent'""",
            later,
        )
        return bool(waits >= 3)

    await eventually(deferred_behind_it, 30, "the later job to be deferred three times")
    assert await stack.status(later) == "queued"
    assert await stack.tally(later) == 0  # its handler never ran

    rows = await stack.sql(
        "SELECT * FROM recovery_discard($1, 0, 'q13-discard', $2, 'payload predates the contract')",
        poison,
        OPERATOR,
    )
    assert (rows[0]["outcome"], rows[0]["state"]) == ("accepted", "discarded")
    await stack.until_status(later, "succeeded")
    assert await stack.tally(later) == 1

    projected = await stack.sql("SELECT * FROM job_public_status($1)", poison)
    assert (projected[0]["status"], projected[0]["error_code"]) == ("failed", "Discarded")
    audit = await stack.sql("SELECT * FROM job_actions WHERE job_id = $1", poison)
    assert [(a["action"], a["actor_id"], a["outcome"]) for a in audit] == [
        ("discard", OPERATOR, "accepted")
    ]
    again = await stack.sql(
        "SELECT * FROM recovery_discard($1, 0, 'q13-discard', $2, 'again')", poison, OPERATOR
    )
    assert (again[0]["outcome"], again[0]["action_id"]) == ("duplicate", audit[0]["id"])
    finished = await stack.sql(
        "SELECT * FROM recovery_discard($1, 0, 'q13-late', $2, 'x')", later, OPERATOR
    )
    assert finished[0]["outcome"] == "succeeded"
