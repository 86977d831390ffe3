"""`genji-jobs` as a process: it lists and shows held jobs within 80 columns, retries through the
recovery service once per idempotency key, and exits with the documented status when it is
misused, refused or rejected."""

from __future__ import annotations

import json
from uuid import UUID, uuid4

import asyncpg
import msgspec
import pytest
from genji_sdk.inspection import JobDetails, JobList
from genji_sdk.recovery import RecoveryResult

from tests.support.held_jobs import OPERATOR, held_job
from tests.support.queue_helpers import enqueue_xp, queue_row
from tests.support.testdb import Connect, Database

from .cli_process import LONG_ERROR, OTHER_USER, genji_jobs, held_with_long_error, widest

pytestmark = pytest.mark.queue


async def _actions(conn: asyncpg.Connection, job_id: UUID) -> list[asyncpg.Record]:
    return await conn.fetch("SELECT * FROM job_actions WHERE job_id = $1 ORDER BY id", job_id)


async def _unchanged(conn: asyncpg.Connection, job_id: UUID) -> None:
    row = await queue_row(conn, job_id)
    assert row is not None and row["status"] == "failed"
    assert await conn.fetchval("SELECT retry_generation FROM jobs WHERE id = $1", job_id) == 0
    assert await _actions(conn, job_id) == []


async def test_list_and_show_print_a_held_job_within_80_columns_and_as_sdk_json(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    held = await held_job(conn, "xp:cli:held")
    uncertain = await held_job(conn, "xp:cli:uncertain", user_id=8, uncertain=True)
    long_error = await held_with_long_error(conn, "xp:cli:long-error")
    pending = (await enqueue_xp(conn, "xp:cli:pending", user_id=9)).id

    listed = await genji_jobs(db, "list", "--state", "held")
    assert listed.code == 0, listed.stderr
    assert {str(held), str(uncertain), str(long_error)} <= set(listed.stdout.split())
    assert str(pending) not in listed.stdout
    assert "api.xp.grant" in listed.stdout and "ApiError: 500 from the API" in listed.stdout
    assert widest(listed.stdout) <= 80, listed.stdout

    shown = await genji_jobs(db, "show", str(uncertain))
    assert shown.code == 0, shown.stderr
    for fact in (str(uncertain), "xp:cli:uncertain", "ApiError: 500 from the API", "xp:grant"):
        assert fact in shown.stdout
    for send in ("message:xp", "channel:5", "message 55", "message:rank_up", "uncertain"):
        assert send in shown.stdout
    assert widest(shown.stdout) <= 80, shown.stdout

    long_shown = await genji_jobs(db, "show", str(long_error))
    assert long_shown.code == 0, long_shown.stderr
    assert LONG_ERROR.split()[-1] in long_shown.stdout  # folded, never cut
    assert widest(long_shown.stdout) <= 80, long_shown.stdout

    as_json = await genji_jobs(db, "list", "--json")
    assert as_json.code == 0, as_json.stderr
    jobs = {job.id: job for job in msgspec.json.decode(as_json.stdout, type=JobList).jobs}
    assert {held, uncertain, pending, long_error} <= set(jobs)
    assert (jobs[held].state, jobs[held].uncertain, jobs[uncertain].uncertain) == (
        "held",
        False,
        True,
    )
    assert (jobs[long_error].state, jobs[pending].state) == ("held", "pending")

    detailed = await genji_jobs(db, "show", str(held), "--json")
    assert detailed.code == 0, detailed.stderr
    details = msgspec.json.decode(detailed.stdout, type=JobDetails)
    assert (details.id, details.state, details.retry_generation, details.retry_enabled) == (
        held,
        "held",
        0,
        True,
    )
    assert [r.effect_key for r in details.receipts] == ["xp:grant"]
    assert [(b.effect_key, b.state, b.message_id) for b in details.bindings] == [
        ("message:xp", "completed", 55)
    ]


async def test_q20_retry_requeues_once_and_a_rerun_with_its_key_answers_the_recorded_retry(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    job_id = await held_job(conn, "xp:cli:retry")

    first = await genji_jobs(db, "retry", str(job_id), "--actor", str(OPERATOR))
    assert first.code == 0, first.stderr
    assert "current generation: 0" in first.stderr
    assert "accepted" in first.stdout
    key = first.stderr.split("idempotency key: ", 1)[1].split()[0]

    row = await queue_row(conn, job_id)
    assert row is not None and row["status"] == "queued"
    assert await conn.fetchval("SELECT retry_generation FROM jobs WHERE id = $1", job_id) == 1
    actions = await _actions(conn, job_id)
    assert [(a["action"], a["actor_id"], a["idempotency_key"], a["outcome"]) for a in actions] == [
        ("retry", OPERATOR, key, "accepted")
    ]
    assert json.loads(actions[0]["detail"])["context"]["source"] == "cli"

    # The result was lost: the same key again, the actor from the environment this time.
    again = await genji_jobs(
        db, "retry", str(job_id), "--key", key, "--json", GENJI_OPERATOR_ID=str(OPERATOR)
    )
    assert again.code == 0, again.stderr
    result = msgspec.json.decode(again.stdout, type=RecoveryResult)
    assert (result.outcome, result.recorded_outcome, result.action_id, result.retry_generation) == (
        "duplicate",
        "accepted",
        actions[0]["id"],
        1,
    )
    assert len(await _actions(conn, job_id)) == 1

    stale = await genji_jobs(
        db, "retry", str(job_id), "--generation", "0", "--actor", str(OPERATOR)
    )
    assert stale.code == 1, stale.stderr
    assert "stale_generation" in stale.stdout
    assert len(await _actions(conn, job_id)) == 1


async def test_q21_an_actor_outside_queue_operator_ids_exits_4_and_changes_nothing(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    job_id = await held_job(conn, "xp:cli:forbidden")

    refused = await genji_jobs(
        db, "retry", str(job_id), "--generation", "0", "--actor", str(OTHER_USER), "--json"
    )
    assert refused.code == 4, refused.stderr
    assert "not a queue operator" in json.loads(refused.stdout)["error"]
    await _unchanged(conn, job_id)


async def test_discard_needs_a_reason_and_an_unknown_job_exits_3(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    job_id = await held_job(conn, "xp:cli:discard")

    no_reason = await genji_jobs(
        db, "discard", str(job_id), "--generation", "0", "--actor", str(OPERATOR)
    )
    assert no_reason.code == 2, no_reason.stderr
    assert "--reason" in no_reason.stderr
    await _unchanged(conn, job_id)

    unknown = await genji_jobs(db, "show", str(uuid4()))
    assert unknown.code == 3, unknown.stderr
    assert "Job not found" in unknown.stderr
