"""Q15: the real worker role runs PGQueuer's QueueManager on the fenced adapter, and reaches
nothing else."""

import asyncio
from datetime import timedelta

import asyncpg
import pytest
from genji_worker.claims import FencedQueries
from genji_worker.driver import DeadlineDriver
from pgqueuer import QueueManager
from pgqueuer.errors import RetryRequested
from pgqueuer.models import Job
from pgqueuer.types import QueueExecutionMode

from tests.support.queue_helpers import XP_EVENT, enqueue_xp, register_worker, sample_json
from tests.support.testdb import WORKER_ROLE, Connect

pytestmark = pytest.mark.queue


async def test_q15_worker_role_dequeues_heartbeats_retries_holds_and_logs(connect: Connect) -> None:
    owner, worker = await connect(), await connect("worker")
    for n in range(3):
        await enqueue_xp(owner, f"xp:{n}", grant_id=n)
    seen: list[int] = []
    heartbeat_advanced: list[bool] = []

    qm = QueueManager(FencedQueries(DeadlineDriver(worker, timedelta(seconds=10), lambda: None)))
    await register_worker(worker, qm.queue_manager_id)

    @qm.entrypoint(XP_EVENT, concurrency_limit=1, on_failure="hold")
    async def handle(job: Job) -> None:
        seen.append(job.id)
        if job.id == 1:
            await asyncio.sleep(0.4)  # long enough for a heartbeat at half the stale threshold
            beat = await owner.fetchval("SELECT heartbeat FROM pgqueuer WHERE id = 1")
            heartbeat_advanced.append(beat > job.updated)
        if job.id == 2 and job.attempts == 0:
            raise RetryRequested(delay=timedelta(0), reason="try again")
        if job.id == 3:
            raise ValueError("held for the operator")

    await asyncio.wait_for(
        qm.run(
            mode=QueueExecutionMode.drain,
            batch_size=1,
            max_concurrent_tasks=2,
            dequeue_timeout=timedelta(seconds=0.2),
            heartbeat_timeout=timedelta(seconds=0.5),
        ),
        timeout=30,
    )

    logs = await owner.fetch("SELECT job_id, status::text FROM pgqueuer_log ORDER BY id")
    by_job: dict[int, list[str]] = {}
    for row in logs:
        by_job.setdefault(row["job_id"], []).append(row["status"])
    # A job's log begins at its first claim; a retry writes its 'queued' row.
    assert by_job[1] == ["picked", "successful"]
    assert by_job[2] == ["picked", "queued", "picked", "successful"]
    assert by_job[3] == ["picked", "failed"]
    assert await owner.fetchval("SELECT status::text FROM pgqueuer WHERE id = 3") == "failed"
    assert heartbeat_advanced == [True] and seen.count(2) == 2


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT * FROM xp_ledger",
        "INSERT INTO xp_ledger VALUES (1)",
        "SELECT * FROM jobs",
        "UPDATE jobs SET retry_generation = 9",
        "SELECT * FROM effect_receipts",
        "SELECT * FROM effect_bindings",
        "SELECT * FROM job_alerts",
        "SELECT * FROM job_actions",
        "SELECT * FROM processed_messages",
        "SELECT * FROM pgqueuer_log",
        "INSERT INTO pgqueuer (priority, entrypoint, status) VALUES (0, 'x', 'queued')",
        "UPDATE pgqueuer SET payload = 'x'",
        "UPDATE pgqueuer SET execute_after = now()",
        "DELETE FROM pgqueuer",
        "SELECT * FROM enqueue_job('api.xp.grant', '{}', 'k')",
        "SELECT * FROM job_public_status(gen_random_uuid())",
        "CREATE TABLE public.sneaky (id int)",
        "CREATE SCHEMA sneaky",
        "SELECT * FROM core.users",
        "INSERT INTO core.users (id, nickname) VALUES (1, 'x')",
        "SELECT key_hash FROM auth.api_tokens",
        "UPDATE lootbox.xp SET amount = 0",
        "SELECT * FROM public.newsfeed",
        "DELETE FROM notifications.events",
        "UPDATE tournaments.config SET transitions_paused = true",
        "SELECT core.difficulty_label(5)",
        "CREATE TABLE core.sneaky (id int)",
    ],
    ids=[
        "q15-read-domain",
        "q15-write-domain",
        "q15-read-job-metadata",
        "q15-write-job-metadata",
        "q15-read-receipts",
        "q15-read-bindings",
        "q15-read-alerts",
        "q15-read-audit",
        "q15-read-processed-messages",
        "q15-read-queue-log",
        "q15-enqueue-directly",
        "q15-rewrite-payload",
        "q15-reschedule",
        "q15-delete-queue-row",
        "q15-call-enqueue",
        "q15-call-status",
        "q15-create-table",
        "q15-create-schema",
        "q15-read-users",
        "q15-write-users",
        "q15-read-api-token-hashes",
        "q15-write-xp",
        "q15-read-newsfeed",
        "q15-delete-notifications",
        "q15-pause-tournaments",
        "q15-call-domain-function",
        "q15-create-table-in-domain-schema",
    ],
)
async def test_worker_role_is_denied(connect: Connect, statement: str) -> None:
    owner = await connect()
    await owner.execute("CREATE TABLE xp_ledger (id int)")
    worker = await connect("worker")
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="permission denied"):
        await worker.execute(statement)


# The queue's own grants to the worker (docs/sql-api.md); every other relation is out of reach.
QUEUE_GRANTED = {"pgqueuer", "queue_event_types", "pgqueuer_log", "pgqueuer_statistics"}
DOMAIN_SCHEMAS = {
    "core",
    "users",
    "auth",
    "maps",
    "playtests",
    "completions",
    "lootbox",
    "notifications",
    "tournaments",
}
APP_SCHEMAS = "n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'"


async def test_q15_worker_role_and_public_reach_no_schema_table_or_function_beyond_the_queue(
    connect: Connect,
) -> None:
    owner = await connect()
    schemas = await owner.fetch(
        f"""SELECT n.nspname, has_schema_privilege($1, n.oid, 'USAGE, CREATE') AS any,
                  ARRAY(SELECT a.privilege_type FROM aclexplode(n.nspacl) a
                        WHERE a.grantee = 0 ORDER BY 1) AS public
           FROM pg_namespace n WHERE {APP_SCHEMAS}""",
        WORKER_ROLE,
    )
    names = {s["nspname"] for s in schemas}
    assert DOMAIN_SCHEMAS <= names  # the catalogue checks below cover the domain
    assert [s["nspname"] for s in schemas if s["any"] and s["nspname"] != "public"] == []
    # PUBLIC may look up names in public (PostgreSQL's default), and nothing more anywhere.
    granted = {s["nspname"]: s["public"] for s in schemas if s["public"]}
    assert granted in ({}, {"public": ["USAGE"]})

    relations = await owner.fetch(
        f"""SELECT n.nspname || '.' || c.relname AS name,
                  has_table_privilege($1, c.oid,
                      'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
                  OR has_any_column_privilege($1, c.oid, 'SELECT, INSERT, UPDATE, REFERENCES')
                      AS any,
                  EXISTS (SELECT 1 FROM aclexplode(c.relacl) a WHERE a.grantee = 0) AS public
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE {APP_SCHEMAS} AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')""",
        WORKER_ROLE,
    )
    assert {r["name"].split(".")[0] for r in relations} >= DOMAIN_SCHEMAS
    reachable = {r["name"] for r in relations if r["any"]}
    assert reachable == {f"public.{t}" for t in QUEUE_GRANTED}
    assert [r["name"] for r in relations if r["public"]] == []

    functions = await owner.fetch(
        f"""SELECT p.oid::regprocedure::text AS name
           FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE {APP_SCHEMAS} AND n.nspname <> 'public'
             AND (has_function_privilege($1, p.oid, 'EXECUTE')
                  OR EXISTS (SELECT 1 FROM aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                             WHERE a.grantee = 0))""",
        WORKER_ROLE,
    )
    assert [f["name"] for f in functions] == []


async def test_q15_worker_role_has_no_elevated_attributes(connect: Connect) -> None:
    owner = await connect()
    row = await owner.fetchrow(
        "SELECT rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls, rolinherit "
        "FROM pg_roles WHERE rolname = $1",
        WORKER_ROLE,
    )
    assert row is not None and not any(row[k] for k in row.keys())
    owns = await owner.fetchval(
        "SELECT count(*) FROM pg_namespace WHERE nspowner = $1::regrole", WORKER_ROLE
    )
    assert owns == 0


async def test_q15_worker_role_cannot_see_api_jobs(connect: Connect) -> None:
    owner = await connect()
    await owner.execute(
        "SELECT enqueue_job('completion.ocr.requested', $1::jsonb, 'ocr:1')",
        sample_json("completion.ocr.requested"),
    )
    await enqueue_xp(owner, "xp:1")
    worker = await connect("worker")
    visible = await worker.fetch("SELECT entrypoint FROM pgqueuer")
    assert [r["entrypoint"] for r in visible] == [XP_EVENT]


async def test_q15_functions_added_later_are_not_callable_by_the_worker(connect: Connect) -> None:
    owner = await connect()
    await owner.execute(
        "CREATE FUNCTION later_admin_helper() RETURNS int LANGUAGE sql AS 'SELECT 1'"
    )
    worker = await connect("worker")
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="permission denied"):
        await worker.fetchval("SELECT later_admin_helper()")


async def test_q15_only_the_worker_login_counts_as_the_worker(connect: Connect) -> None:
    """queue_session_is_worker, asked inside every fenced write (SECURITY DEFINER functions of
    the owner), judges the login: the owner is not the worker, nor is a superuser, although a
    superuser is a member of every role, whichever role it takes with SET ROLE."""
    owner = await connect()
    await owner.execute(
        "CREATE FUNCTION probe_is_worker() RETURNS boolean LANGUAGE sql SECURITY DEFINER "
        "AS 'SELECT queue_session_is_worker()'"
    )
    await owner.execute(f"GRANT EXECUTE ON FUNCTION probe_is_worker() TO {WORKER_ROLE}")
    probe = "SELECT probe_is_worker()"
    worker = await connect("worker")
    admin = await connect("admin")
    assert [await c.fetchval(probe) for c in (worker, owner, admin)] == [True, False, False]
    owner_role = await owner.fetchval("SELECT current_user")
    for role in (WORKER_ROLE, owner_role):
        await admin.execute(f"SET ROLE {role}")
        assert await admin.fetchval(probe) is False, role
        await admin.execute("RESET ROLE")
