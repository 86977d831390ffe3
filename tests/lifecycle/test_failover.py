"""Failover: the primary dies mid-backlog and its synchronous standby is promoted.

Bot and API worker processes are given one multi-host DSN naming the primary, then the standby,
with target_session_attrs=read-write. While they work through a committed backlog (with one
execution of each owner held inside its handler, after its receipt-guarded mutation), the
standby's WAL sender is stalled and one more job is enqueued: with synchronous replication its
commit must not be acknowledged. The primary is then SIGKILLed and the standby promoted. The
workers reconnect to the new primary by themselves and finish; its durable state must hold
every acknowledged job, each succeeded once with its mutation applied once, and no claim left
behind by a session that died with the old primary.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import Iterator
from uuid import UUID

import asyncpg
import pytest
from genji_devstack.cluster import PgCluster
from genji_devstack.replication import make_standby, multi_host_dsn, promote, walsender_pid
from genji_queue.enqueue import enqueue_job_raw
from genji_sdk.roles import OWNER_ROLE, WORKER_ROLE

from tests.support.harness import (
    DATABASE,
    FAST_SETTINGS,
    Stack,
    Worker,
    eventually,
    recorded_claims,
    sample,
)

pytestmark = [pytest.mark.queue, pytest.mark.queue_fault]

STANDBY = "standby1"
EVENTS = (
    "api.xp.grant",
    "api.completion.upvote",
    "api.playtest.vote.cast",
    "api.newsfeed.create",
    "completion.ocr.requested",
    "tournament.ocr.requested",
    "map.linked.newsfeed.requested",
)
BACKLOG = 42
# One execution per owner held inside its handler while the primary dies; the rest of its
# entrypoint's backlog waits behind it (one running job per entrypoint).
HELD = ("api.newsfeed.create", "completion.ocr.requested")
PRODUCER = "failover-producer"
FINISH_DEADLINE = 25.0


@pytest.fixture
def standby(stack: Stack) -> Iterator[PgCluster]:
    replica = make_standby(stack.cluster, STANDBY, synchronous=True)
    try:
        yield replica
    finally:
        replica.destroy()


def start_workers(stack: Stack, standby: PgCluster) -> list[Worker]:
    servers = [stack.cluster, standby]
    cluster = stack.cluster
    owner_dsn = multi_host_dsn(servers, DATABASE, OWNER_ROLE, cluster.owner_password)
    settings = {**FAST_SETTINGS, "GENJI_TALLY_DSN": owner_dsn}
    return [
        stack.fleet.start(
            "bot", multi_host_dsn(servers, DATABASE, WORKER_ROLE, cluster.worker_password), settings
        ),
        stack.fleet.start("api", owner_dsn, settings),
    ]


def held_executions(stack: Stack) -> dict[str, UUID]:
    """The job of each held entrypoint whose execution reached its held effect."""
    return {
        e["event"]: UUID(e["job_id"])
        for e in stack.recorder.events()
        if e["event"] in HELD and e["effect"] == "announce" and e["stage"] == "start"
    }


async def stall_replication_then_kill_primary(stack: Stack) -> UUID | None:
    """Stall the standby's WAL sender, enqueue one job, then SIGKILL the primary: the job's id
    when its commit was acknowledged, None when the primary died while it waited for the
    standby (SyncRep)."""
    sender = walsender_pid(stack.cluster, STANDBY)
    assert sender is not None
    conn = await asyncpg.connect(stack.dsn, server_settings={"application_name": PRODUCER})
    os.kill(sender, signal.SIGSTOP)  # the primary's SIGKILL ends it
    event = "api.xp.grant"
    late = asyncio.create_task(
        enqueue_job_raw(
            conn,
            event_name=event,
            payload_json=json.dumps(sample(event)),
            event_key="failover:during-stall",
        )
    )

    async def acknowledged_or_waiting() -> bool:
        waiting = await stack.admin_sql(
            "SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event = 'SyncRep'",
            PRODUCER,
        )
        return late.done() or bool(waiting)

    try:
        await eventually(acknowledged_or_waiting, 10, "the stalled commit to wait or return")
        stack.cluster.kill9()
        try:
            return (await late).job.id
        except (asyncpg.InterfaceError, asyncpg.PostgresError, OSError):
            return None
    finally:
        conn.terminate()


async def test_failover_to_a_synchronous_standby_loses_no_job_and_runs_each_once(
    stack: Stack, standby: PgCluster
) -> None:
    for event in HELD:
        stack.recorder.command(f"{event}:announce", "hang")
    acknowledged: list[UUID] = []
    for n in range(BACKLOG):
        event = EVENTS[n % len(EVENTS)]
        acknowledged.append(
            await stack.enqueue(f"failover:{n}", event=event, payload=sample(event))
        )
    workers = start_workers(stack, standby)

    async def processing() -> bool:
        done = await stack.value(
            "SELECT count(*) FROM jobs j WHERE j.id = ANY($1::uuid[])"
            " AND (SELECT status FROM job_public_status(j.id)) = 'succeeded'",
            acknowledged,
        )
        return held_executions(stack).keys() == set(HELD) and done >= 3

    await eventually(processing, 20, "both held executions and some completed jobs")
    held = held_executions(stack)
    late = await stall_replication_then_kill_primary(stack)
    if late is not None:
        acknowledged.append(late)
    promote(standby)
    for event in HELD:
        stack.recorder.command(f"{event}:announce", "complete")

    promoted = Stack(cluster=standby, tmp=stack.tmp)
    present = {
        r["id"] for r in await promoted.sql("SELECT id FROM jobs WHERE id = ANY($1)", acknowledged)
    }
    assert [j for j in acknowledged if j not in present] == [], "acknowledged jobs were lost"
    assert late is None, "a commit was acknowledged before the standby had it"

    async def all_settled() -> bool:
        unfinished = await promoted.value(
            "SELECT count(*) FROM jobs j WHERE (SELECT status FROM job_public_status(j.id))"
            " <> 'succeeded'"
        )
        return unfinished == 0

    await eventually(all_settled, FINISH_DEADLINE, "every job to succeed on the new primary")

    rows = await promoted.sql(
        """SELECT j.id,
                  (SELECT count(*) FROM pgqueuer_log l
                   WHERE l.job_id = j.queue_job_id AND l.status = 'successful') AS completions,
                  coalesce((SELECT sum(applied) FROM effect_tally t WHERE t.job_id = j.id), 0)
                      AS applied
           FROM jobs j"""
    )
    assert len(rows) >= len(acknowledged)
    wrong = [(r["id"], r["completions"], r["applied"]) for r in rows if (r[1], r[2]) != (1, 1)]
    assert not wrong, f"jobs not completed exactly once: {wrong}"
    # Nothing is left claimed by a session that died with the old primary.
    assert await promoted.value("SELECT count(*) FROM pgqueuer") == 0
    for event, job in held.items():
        assert len(recorded_claims(stack, job)) == 2, f"{event}: one claim on each primary"

    # The same processes, reconnected to the promoted standby.
    assert all(w.alive() for w in workers), stack.fleet.log_tails()
    sessions = await promoted.admin_sql(
        "SELECT DISTINCT application_name FROM pg_stat_activity WHERE application_name LIKE 'genji-%'"
    )
    assert {r[0] for r in sessions} >= {"genji-bot-worker", "genji-api-worker"}
    for worker in workers:
        assert "queue connection lost" in worker.log() or "unreachable" in worker.log()
        assert "queue worker died" not in worker.log()


async def test_a_worker_whose_hosts_are_all_read_only_waits_for_a_promotion(
    stack: Stack, standby: PgCluster
) -> None:
    """Mid-switchover every listed host may answer read-only (the old primary demoted before
    the new one is promoted): the worker keeps retrying instead of exiting."""
    dsn = multi_host_dsn([standby], DATABASE, WORKER_ROLE, standby.worker_password)
    worker = stack.fleet.start("bot", dsn, FAST_SETTINGS)

    async def retrying() -> bool:
        assert worker.alive(), f"the worker exited:\n{worker.log_tail()}"
        return "queue database unreachable (TargetServerAttributeNotMatched)" in worker.log()

    await eventually(retrying, 20, "the worker to retry against read-only hosts")

    stack.cluster.kill9()
    promote(standby)
    promoted = Stack(cluster=standby, tmp=stack.tmp)
    job = await promoted.enqueue("failover:read-only-hosts")
    await promoted.until_status(job, "succeeded")
    assert worker.alive()
    assert "queue worker died" not in worker.log()
