"""No parallel recovery path: raw SQL and PGQueuer's own tools cannot requeue, delete or create
queue rows behind the recovery functions and enqueue_job."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import asyncpg
import pytest
from genji_queue.recovery_retry import recovery_retry
from pgqueuer.queries import Queries

from tests.support.held_jobs import held_job, retry_request
from tests.support.queue_helpers import queue_row
from tests.support.testdb import Connect, Database

pytestmark = pytest.mark.queue

PGQ = Path(sys.executable).with_name("pgq")
PGQUEUER_REQUEUE = """UPDATE pgqueuer SET status = 'queued', execute_after = NOW(), updated = NOW(),
    attempts = 0, queue_manager_id = NULL WHERE id = ANY($1) AND status = 'failed'"""


async def _still_held(conn: asyncpg.Connection, job_id: object) -> bool:
    row = await queue_row(conn, job_id)  # type: ignore[arg-type]
    return row is not None and row["status"] == "failed"


async def test_a_raw_requeue_of_a_held_row_is_refused_and_names_the_recovery_command(
    connect: Connect,
) -> None:
    conn = await connect()
    job_id = await held_job(conn)
    queue_id = (await queue_row(conn, job_id))["id"]  # type: ignore[index]
    with pytest.raises(asyncpg.PostgresError) as caught:
        await conn.execute(PGQUEUER_REQUEUE, [queue_id])
    assert caught.value.sqlstate == "GJ009"
    assert f"genji-jobs retry {job_id}" in (caught.value.hint or "")
    with pytest.raises(asyncpg.PostgresError, match="only the recovery service"):
        await Queries.from_asyncpg_connection(conn).requeue_jobs([queue_id])
    with pytest.raises(asyncpg.PostgresError, match="only the recovery service") as deleted:
        await conn.execute("DELETE FROM pgqueuer WHERE id = $1", queue_id)
    # The commands as they run: a discard needs its reason.
    assert f"genji-jobs discard {job_id} --reason ..." in (deleted.value.hint or "")
    with pytest.raises(asyncpg.PostgresError, match="cannot be truncated") as truncated:
        await conn.execute("TRUNCATE pgqueuer")
    assert "genji-jobs discard <job id> --reason ..." in (truncated.value.hint or "")
    assert await _still_held(conn, job_id)


async def test_an_audited_retry_of_one_job_does_not_open_the_guard_for_another(
    connect: Connect,
) -> None:
    conn = await connect()
    first = await held_job(conn)
    second = await held_job(conn, "xp:second", user_id=8, effects=False)
    second_queue_id = (await queue_row(conn, second))["id"]  # type: ignore[index]
    with pytest.raises(asyncpg.PostgresError, match="only the recovery service"):
        async with conn.transaction():
            assert (await recovery_retry(conn, first, retry_request())).outcome == "accepted"
            await conn.execute(PGQUEUER_REQUEUE, [second_queue_id])
    assert await _still_held(conn, first) and await _still_held(conn, second)


async def test_a_queue_row_without_public_identity_cannot_be_created(connect: Connect) -> None:
    conn = await connect()
    with pytest.raises(asyncpg.PostgresError, match="created by enqueue_job") as caught:
        await Queries.from_asyncpg_connection(conn).enqueue("api.xp.grant", b"{}")
    assert caught.value.sqlstate == "GJ009"
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer") == 0


async def test_one_row_without_identity_refuses_the_whole_statement(connect: Connect) -> None:
    conn = await connect()
    with_identity = await conn.fetchval(
        "INSERT INTO jobs (id, action, status, queue_job_id, event_key, payload_hash, "
        "schema_version, event_seq) VALUES (gen_random_uuid(), 'api.xp.grant', 'queued', "
        "nextval('pgqueuer_id_seq'), 'k', '-', 1, nextval('job_event_seq')) RETURNING queue_job_id"
    )
    with pytest.raises(asyncpg.PostgresError, match="created by enqueue_job") as caught:
        await conn.execute(
            "INSERT INTO pgqueuer (id, priority, entrypoint, payload, status) "
            "SELECT i, 0, 'api.xp.grant', '{}', 'queued' FROM unnest($1::bigint[]) AS i",
            [with_identity, with_identity + 1000],
        )
    assert caught.value.sqlstate == "GJ009"
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer") == 0


@pytest.mark.parametrize("missing_at", [0, 2, 4])
async def test_a_row_without_identity_anywhere_in_a_statement_refuses_it(
    connect: Connect, missing_at: int
) -> None:
    conn = await connect()
    ids = [
        await conn.fetchval(
            "INSERT INTO jobs (id, action, status, queue_job_id, event_key, payload_hash, "
            "schema_version, event_seq) VALUES (gen_random_uuid(), 'api.xp.grant', 'queued', "
            "nextval('pgqueuer_id_seq'), $1, '-', 1, nextval('job_event_seq')) "
            "RETURNING queue_job_id",
            f"k{n}",
        )
        for n in range(5)
    ]
    ids[missing_at] += 1000
    with pytest.raises(asyncpg.PostgresError, match="created by enqueue_job") as caught:
        await conn.execute(
            "INSERT INTO pgqueuer (id, priority, entrypoint, payload, status) "
            "SELECT i, 0, 'api.xp.grant', '{}', 'queued' FROM unnest($1::bigint[]) AS i",
            ids,
        )
    assert caught.value.sqlstate == "GJ009"
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer") == 0


async def test_pgqueuers_own_batch_enqueue_without_identity_is_refused(connect: Connect) -> None:
    conn = await connect()
    with pytest.raises(asyncpg.PostgresError, match="created by enqueue_job") as caught:
        await Queries.from_asyncpg_connection(conn).enqueue(
            ["api.xp.grant"] * 3, [b"{}"] * 3, [0] * 3
        )
    assert caught.value.sqlstate == "GJ009"
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer") == 0


async def _pgq(database: Database, *args: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        str(PGQ),
        *args,
        env={**os.environ, "PGDSN": database.dsn},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()


async def test_pgqueuers_own_cli_can_neither_requeue_a_held_job_nor_create_one(
    connect: Connect, db: Database
) -> None:
    conn = await connect()
    job_id = await held_job(conn)
    queue_id = (await queue_row(conn, job_id))["id"]  # type: ignore[index]
    code, output = await _pgq(db, "requeue", str(queue_id))
    assert code != 0 and "genji-jobs retry" in output, output
    code, output = await _pgq(db, "queue", "api.xp.grant", "{}")
    assert code != 0 and "created by enqueue_job" in output, output
    assert await _still_held(conn, job_id)
    assert await conn.fetchval("SELECT count(*) FROM pgqueuer") == 1
