"""The operator's health report: live workers only, silent ones listed, a status that says
whether anything needs attention, and one clear line when the database cannot be read."""

from __future__ import annotations

import subprocess
import sys
from uuid import uuid4

import asyncpg
import pytest
from genji_devstack.ports import free_port
from genji_queue.recovery_discard import recovery_discard
from genji_sdk.recovery import DiscardRequest, OperatorContext

from tests.support import seed_alerts as sa
from tests.support.queue_helpers import claim_next, enqueue_xp
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue


def report(dsn: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "genji_api.queue.report", "--database", dsn, *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


async def beat(conn: asyncpg.Connection, owner: str, pid: int) -> None:
    await conn.execute("SELECT queue_worker_beat($1, $2, 'host-a', $3)", uuid4(), owner, pid)


async def silent_worker(conn: asyncpg.Connection, owner: str, pid: int, minutes: int) -> None:
    await conn.execute(
        "INSERT INTO queue_workers (manager_id, owner, host, pid, backend_pid, beat_at)"
        " VALUES ($1, $2, 'host-b', $3, 0, now() - make_interval(mins => $4))",
        uuid4(),
        owner,
        pid,
        minutes,
    )


async def test_report_is_all_clear_when_each_owner_with_work_has_a_live_worker(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    await enqueue_xp(conn, "xp:ready")  # a bot job
    await beat(conn, "bot", 101)
    await silent_worker(conn, "api", 202, minutes=5)  # silent, but api has no work

    result = report(db.dsn)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "workers_alive      1  (bot 1, api 0" in result.stdout
    assert "workers_silent     1" in result.stdout
    assert "api  host-b  pid 202  last beat " in result.stdout and "(5m0" in result.stdout
    assert result.stdout.rstrip().endswith("all clear")


async def test_report_needs_attention_for_a_held_job(db: Database, connect: Connect) -> None:
    conn = await connect()
    await enqueue_xp(conn, "xp:held")
    await beat(conn, "bot", 101)
    held = await claim_next(conn, uuid4())
    assert held is not None
    await conn.execute(
        "SELECT queue_hold($1, $2, $3, '{}')", held.id, held.queue_manager_id, held.updated
    )

    result = report(db.dsn)
    assert result.returncode == 1
    assert "needs attention:\n  - 1 held job waiting for an operator" in result.stdout


async def test_report_needs_attention_for_an_uncertain_effect(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    job = await enqueue_xp(conn, "xp:uncertain")
    await beat(conn, "bot", 101)
    await conn.execute(
        "INSERT INTO effect_bindings (job_id, effect_key, destination, state)"
        " VALUES ($1, 'send', 'c:1', 'uncertain')",
        job.id,
    )

    result = report(db.dsn)
    assert result.returncode == 1
    assert "  - 1 effect with an uncertain outcome" in result.stdout


async def test_report_is_all_clear_once_the_job_of_an_uncertain_send_is_discarded(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    job = await sa.held(conn, sa.BOT_EVENT, "discarded-uncertain")
    await conn.execute(
        "INSERT INTO effect_bindings (job_id, effect_key, destination, state)"
        " VALUES ($1, 'send', 'c:1', 'uncertain')",
        job,
    )
    before = report(db.dsn)
    assert before.returncode == 1
    assert "  - 1 effect with an uncertain outcome" in before.stdout

    request = DiscardRequest(
        expected_generation=0,
        idempotency_key="discard-uncertain",
        actor_id=sa.OPERATOR,
        reason="the announcement is no longer wanted",
        context=OperatorContext(source="cli"),
    )
    async with conn.transaction():
        assert (await recovery_discard(conn, job, request)).outcome == "accepted"

    after = report(db.dsn)
    assert after.returncode == 0, after.stdout + after.stderr
    assert after.stdout.rstrip().endswith("all clear")
    # The send's record is kept as it was: nothing settled what happened to it.
    state = await conn.fetchval("SELECT state FROM effect_bindings WHERE job_id = $1", job)
    assert state == "uncertain"


async def test_report_needs_attention_when_an_owner_has_work_but_only_silent_workers(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    await enqueue_xp(conn, "xp:ready", grant_id=1, user_id=1)
    await enqueue_xp(conn, "xp:running", grant_id=2, user_id=2)
    assert await claim_next(conn, uuid4()) is not None
    await silent_worker(conn, "bot", 303, minutes=3)  # the bot worker died
    await beat(conn, "api", 404)  # a live worker of the other owner does not help

    result = report(db.dsn)
    assert result.returncode == 1
    assert "workers_alive      1  (bot 0, api 1" in result.stdout
    assert "bot  host-b  pid 303  last beat " in result.stdout
    assert "  - bot: 1 ready and 1 running but no live bot worker" in result.stdout
    assert "api:" not in result.stdout


def test_report_says_in_one_line_when_the_database_is_unreachable() -> None:
    dsn = f"postgresql://genji:s3cret@127.0.0.1:{free_port()}/genjishimada"
    result = report(dsn, "--timeout", "5")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("queue report: cannot read queue health from 127.0.0.1:")
    assert "s3cret" not in result.stderr and "Traceback" not in result.stderr


def test_report_says_in_one_line_when_the_queue_schema_is_missing(db: Database) -> None:
    # The server answers, but this database was never migrated.
    dsn = db.dsn.rsplit("/", 1)[0] + "/postgres"
    result = report(dsn)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "queue_metrics" in result.stderr
