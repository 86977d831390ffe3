"""Q15: the plan deploys on an empty database and upgrades the legacy schema in place; the
upgraded database serves a real consumer logged in as the worker role, and nothing more."""

import asyncio
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit
from uuid import UUID, uuid4

import asyncpg
import msgspec
import pytest
from genji_api.migrate import apply_plan, plan_migrations, rollback_plan
from genji_queue.status import job_public_status
from genji_sdk import REGISTRY, JobContext
from genji_worker.settings import WorkerSettings
from genji_worker.supervisor import QueueSupervisor

from tests.support.queue_helpers import XP_EVENT, enqueue_xp
from tests.support.testdb import Database

pytestmark = pytest.mark.queue

PLAN = [m.id for m in plan_migrations()]


def test_q15_fresh_database_gets_the_whole_plan_once(empty_database: str) -> None:
    assert apply_plan(empty_database) == PLAN
    assert apply_plan(empty_database) == []


def test_q15_every_change_reverts_and_redeploys(empty_database: str) -> None:
    apply_plan(empty_database)
    assert rollback_plan(empty_database, len(PLAN)) == list(reversed(PLAN))
    assert apply_plan(empty_database) == PLAN


LEGACY_ROWS = [
    ("queued", None),
    ("processing", None),
    ("succeeded", None),
    ("failed", "BOT_ERROR"),
    ("timeout", None),
]


async def _upgrade_seeded_legacy_database(dsn: str) -> list[UUID]:
    """Deploy the legacy schema, seed it with jobs of every legacy status, then upgrade it."""
    assert apply_plan(dsn, through="legacy_baseline") == ["legacy_baseline"]
    conn = await asyncpg.connect(dsn)
    try:
        ids = []
        for status, code in LEGACY_ROWS:
            job_id = uuid4()
            ids.append(job_id)
            await conn.execute(
                "INSERT INTO jobs (id, action, status, error_code, error_msg) VALUES ($1, 'api.xp.grant', $2, $3, $4)",
                job_id,
                status,
                code,
                "legacy" if code else None,
            )
        await conn.execute(
            "INSERT INTO processed_messages (idempotency_key) VALUES ('map:submit:1')"
        )
        # Some legacy databases opened their tables to every role; the upgrade takes that back.
        await conn.execute("GRANT ALL ON jobs, processed_messages TO PUBLIC")
    finally:
        await conn.close()
    assert apply_plan(dsn) == PLAN[1:]
    return ids


async def test_q15_upgrade_keeps_seeded_legacy_jobs_and_their_statuses(empty_database: str) -> None:
    ids = await _upgrade_seeded_legacy_database(empty_database)
    conn = await asyncpg.connect(empty_database)
    try:
        for job_id, (status, code) in zip(ids, LEGACY_ROWS, strict=True):
            projected = await job_public_status(conn, job_id)
            assert (projected.status, projected.error_code) == (status, code)
        assert await conn.fetchval("SELECT count(*) FROM processed_messages") == 1
        fresh = await enqueue_xp(conn, "xp:after-upgrade")
        assert (await job_public_status(conn, fresh.id)).status == "queued"
    finally:
        await conn.close()


CONSUMER = WorkerSettings(
    polling_fallback=timedelta(seconds=0.2),
    drain_timeout=timedelta(seconds=1),
    reconnect_initial=timedelta(seconds=0.1),
    reconnect_max=timedelta(seconds=0.5),
    command_timeout=timedelta(seconds=2),
)

# Direct writes (and reads) the worker login must be refused on the upgraded database.
DENIED_AFTER_UPGRADE = [
    "UPDATE jobs SET status = 'succeeded'",
    "INSERT INTO jobs (id, action) VALUES (gen_random_uuid(), 'api.xp.grant')",
    "DELETE FROM jobs",
    "SELECT * FROM jobs",
    "UPDATE processed_messages SET processed_at = now()",
    "INSERT INTO processed_messages (idempotency_key) VALUES ('x')",
    "SELECT * FROM processed_messages",
    "INSERT INTO pgqueuer (priority, entrypoint, status) VALUES (0, 'api.xp.grant', 'queued')",
    "UPDATE pgqueuer SET payload = 'x'",
    "DELETE FROM pgqueuer",
    "INSERT INTO pgqueuer_log (job_id, status, entrypoint, priority) "
    "VALUES (1, 'successful', 'api.xp.grant', 0)",
    "SELECT * FROM effect_receipts",
    "SELECT * FROM enqueue_job('api.xp.grant', '{}', 'k')",
    "CREATE TABLE public.sneaky (id int)",
]


def _login_on(login_dsn: str, database_dsn: str) -> str:
    """`login_dsn`'s credentials, pointed at the database `database_dsn` names."""
    return urlunsplit(urlsplit(login_dsn)._replace(path=urlsplit(database_dsn).path))


async def test_q15_upgraded_database_serves_the_worker_login_and_denies_it_the_rest(
    empty_database: str, db: Database
) -> None:
    await _upgrade_seeded_legacy_database(empty_database)
    worker_dsn = _login_on(db.worker_dsn, empty_database)
    owner = await asyncpg.connect(empty_database)
    try:
        job = await enqueue_xp(owner, "xp:after-upgrade")
        seen: list[JobContext] = []

        async def handle(payload: msgspec.Struct, context: JobContext) -> None:
            seen.append(context)

        supervisor = QueueSupervisor(
            owner="bot",
            handlers={spec.name: handle for spec in REGISTRY.owned_by("bot")},
            connect=lambda: asyncpg.connect(worker_dsn),
            settings=CONSUMER,
        )
        running = asyncio.create_task(supervisor.run())
        try:
            async with asyncio.timeout(15):
                while True:
                    if (await job_public_status(owner, job.id)).status == "succeeded":
                        break
                    await asyncio.sleep(0.05)
        finally:
            supervisor.request_stop()
            await asyncio.wait_for(running, 10)
        assert [c.job_id for c in seen] == [job.id]
        assert [
            r["status"]
            for r in await owner.fetch(
                "SELECT status::text FROM pgqueuer_log WHERE entrypoint = $1 ORDER BY id", XP_EVENT
            )
        ] == ["picked", "successful"]
    finally:
        await owner.close()

    worker = await asyncpg.connect(worker_dsn)
    try:
        assert await worker.fetchval("SELECT current_user") == "genjishimada_queue_worker"
        allowed = []
        for statement in DENIED_AFTER_UPGRADE:
            try:
                await worker.execute(statement)
            except asyncpg.InsufficientPrivilegeError:
                continue
            allowed.append(statement)
        assert allowed == []
    finally:
        await worker.close()
