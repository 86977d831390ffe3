"""Q15: the plan deploys on an empty database and upgrades the legacy schema in place."""

from uuid import uuid4

import asyncpg
import pytest
from genji_api.migrate import apply_plan, plan_migrations, rollback_plan
from genji_queue.status import job_public_status
from queue_helpers import enqueue_xp

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


async def test_q15_upgrade_keeps_seeded_legacy_jobs_and_their_statuses(empty_database: str) -> None:
    assert apply_plan(empty_database, through="legacy_baseline") == ["legacy_baseline"]
    conn = await asyncpg.connect(empty_database)
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

        assert apply_plan(empty_database) == PLAN[1:]

        for job_id, (status, code) in zip(ids, LEGACY_ROWS, strict=True):
            projected = await job_public_status(conn, job_id)
            assert (projected.status, projected.error_code) == (status, code)
        assert await conn.fetchval("SELECT count(*) FROM processed_messages") == 1
        fresh = await enqueue_xp(conn, "xp:after-upgrade")
        assert (await job_public_status(conn, fresh.id)).status == "queued"
    finally:
        await conn.close()
