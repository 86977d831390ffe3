"""`genji-jobs list --state succeeded|discarded|all`: finished jobs are listed too, most recently
finished first, never more than --limit (at most 500)."""

from __future__ import annotations

from uuid import UUID

import msgspec
import pytest
from genji_queue.complete import queue_complete
from genji_sdk.inspection import JobList

from tests.support.held_jobs import claim, held_job
from tests.support.queue_helpers import enqueue_xp
from tests.support.testdb import Connect, Database

from .cli_process import genji_jobs

pytestmark = pytest.mark.queue


async def _listed(db: Database, *args: str) -> JobList:
    run = await genji_jobs(db, "list", *args, "--json")
    assert run.code == 0, run.stderr
    return msgspec.json.decode(run.stdout, type=JobList)


async def test_list_shows_succeeded_jobs_and_all_states_within_the_limit(
    db: Database, connect: Connect
) -> None:
    conn = await connect()
    held = await held_job(conn, "xp:list:held")
    succeeded: list[UUID] = []
    for n in range(3):
        succeeded.append((await enqueue_xp(conn, f"xp:list:done-{n}", user_id=20 + n)).id)
        assert await queue_complete(conn, await claim(conn))
    pending = (await enqueue_xp(conn, "xp:list:pending", user_id=30)).id

    done = await _listed(db, "--state", "succeeded")
    assert [(j.id, j.state) for j in done.jobs] == [(i, "succeeded") for i in reversed(succeeded)]
    assert all(j.finished_at is not None for j in done.jobs)
    bounded = await _listed(db, "--state", "succeeded", "--limit", "2")
    assert [j.id for j in bounded.jobs] == list(reversed(succeeded))[:2]

    everything = await _listed(db, "--state", "all")
    assert [j.id for j in everything.jobs] == [pending, *reversed(succeeded), held]
    assert [j.id for j in (await _listed(db, "--state", "all", "--limit", "3")).jobs] == [
        pending,
        *list(reversed(succeeded))[:2],
    ]
    assert {j.id for j in (await _listed(db)).jobs} == {pending, held}
    assert (await _listed(db, "--state", "discarded")).jobs == []

    text = await genji_jobs(db, "list", "--state", "succeeded")
    assert text.code == 0, text.stderr
    assert text.stdout.startswith("3 jobs, state succeeded") and "finished" in text.stdout

    over = await genji_jobs(db, "list", "--state", "all", "--limit", "501")
    assert over.code == 2 and "1<=x<=500" in over.stderr, over.stderr
