"""Queue health: depth by state, oldest ready age, held and uncertain counts, worker liveness."""

import json
import subprocess
import sys
from uuid import uuid4

import pytest

from tests.support.testdb import Connect, Database

from .queue_states import grants_in_every_state

pytestmark = pytest.mark.queue


async def test_metrics_count_every_state_and_worker_liveness(connect: Connect) -> None:
    conn, worker = await connect(), await connect("worker")
    await grants_in_every_state(conn, 4)
    job_id = await conn.fetchval("SELECT id FROM jobs WHERE queue_job_id = 1")
    await conn.execute(
        "INSERT INTO effect_bindings (job_id, effect_key, destination, state) VALUES ($1, 'send', 'c:1', 'uncertain')",
        job_id,
    )
    await worker.execute("SELECT queue_worker_beat($1, 'bot', 'host', 1)", uuid4())
    await conn.execute(
        "INSERT INTO queue_workers (manager_id, owner, host, pid, backend_pid, beat_at) VALUES ($1, 'api', 'h', 2, 0, now() - interval '5 minutes')",
        uuid4(),
    )

    row = await conn.fetchrow("SELECT * FROM queue_metrics()")
    assert row is not None
    assert (row["ready"], row["delayed"], row["running"], row["held"]) == (1, 1, 1, 1)
    assert row["uncertain_effects"] == 1
    assert row["oldest_ready_age"].total_seconds() >= 90
    assert (row["workers_alive"], row["workers_silent"]) == (1, 1)
    per_owner = ("bot_ready", "bot_running", "api_ready", "api_running")
    assert [row[c] for c in per_owner] == [1, 1, 0, 0]
    assert (row["bot_workers_alive"], row["api_workers_alive"]) == (1, 0)
    silent = json.loads(row["silent_workers"])
    assert [(w["owner"], w["host"], w["pid"]) for w in silent] == [("api", "h", 2)]


def test_report_command_prints_the_metrics(db: Database) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "genji_api.queue.report", "--database", db.dsn],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "ready" in result.stdout and "workers_alive" in result.stdout
