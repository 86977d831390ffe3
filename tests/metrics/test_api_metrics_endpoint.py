"""The API process's /metrics over real HTTP: queue gauges from the database and the series of
its worker, after seeding jobs in every state."""

from __future__ import annotations

from uuid import uuid4

import pytest
from genji_sdk import REGISTRY

from tests.support.queue_helpers import XP_EVENT, claim_next, enqueue_xp
from tests.support.testdb import Connect, Database

from .scrape import scraped_when, served_metrics, value

pytestmark = pytest.mark.queue


async def test_api_endpoint_exports_queue_depth_ages_held_uncertain_and_workers(
    db: Database, connect: Connect
) -> None:
    conn, worker = await connect(), await connect("worker")
    for n in range(4):
        await enqueue_xp(conn, f"xp:{n}", grant_id=n, user_id=n + 1)
    held = await claim_next(conn, uuid4())
    assert held is not None
    await conn.execute(
        "SELECT queue_hold($1, $2, $3, '{}')", held.id, held.queue_manager_id, held.updated
    )
    assert await claim_next(conn, uuid4()) is not None
    await conn.execute("UPDATE pgqueuer SET execute_after = now() + interval '1 hour' WHERE id = 4")
    await conn.execute(
        "UPDATE pgqueuer SET execute_after = now() - interval '90 seconds' WHERE id = 3"
    )
    job_id = await conn.fetchval("SELECT id FROM jobs WHERE queue_job_id = 1")
    await conn.execute(
        "INSERT INTO effect_bindings (job_id, effect_key, destination, state) "
        "VALUES ($1, 'send', 'c:1', 'uncertain')",
        job_id,
    )
    await worker.execute("SELECT queue_worker_beat($1, 'bot', 'host', 1)", uuid4())
    await conn.execute(
        "INSERT INTO queue_workers (manager_id, owner, host, pid, backend_pid, beat_at) "
        "VALUES ($1, 'bot', 'h', 2, 0, now() - interval '5 minutes')",
        uuid4(),
    )

    async with served_metrics(db, run_worker=False) as url:
        samples = await scraped_when(url, "genji_queue_jobs")

    assert value(samples, "genji_queue_metrics_database_up") == 1
    xp = {"owner": "bot", "entrypoint": XP_EVENT}
    depth = {s: value(samples, "genji_queue_jobs", **xp, state=s) for s in ("ready", "delayed")}
    assert depth == {"ready": 1, "delayed": 1}
    assert value(samples, "genji_queue_jobs", **xp, state="running") == 1
    assert value(samples, "genji_queue_jobs", **xp, state="held") == 1
    age = value(samples, "genji_queue_oldest_ready_age_seconds", **xp)
    assert age is not None and 90 <= age < 120
    idle = next(spec for spec in REGISTRY if spec.name != XP_EVENT)
    for state in ("ready", "delayed", "running", "held"):
        labels = {"owner": idle.owner, "entrypoint": idle.name, "state": state}
        assert value(samples, "genji_queue_jobs", **labels) == 0
    assert value(samples, "genji_queue_held_jobs") == 1
    assert value(samples, "genji_queue_uncertain_effects") == 1
    workers = {
        (owner, state): value(samples, "genji_queue_workers", owner=owner, state=state)
        for owner in ("bot", "api")
        for state in ("alive", "silent")
    }
    assert workers == {
        ("bot", "alive"): 1,
        ("bot", "silent"): 1,
        ("api", "alive"): 0,
        ("api", "silent"): 0,
    }
    assert not any("job_id" in dict(labels) for _, labels in samples)
