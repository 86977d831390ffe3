"""A start gate that raises while a claim passes its jobs through it (queue_begin failing on a
parent whose queue metadata is inconsistent) holds only that job, as GateFailed with the
database's message: the claim's other jobs still run, and the event the held job had taken is
free for the next claim."""

from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim

from tests.support.queue_helpers import (
    XP_EVENT,
    enqueue_behind_pending_parent,
    enqueue_sample,
    register_worker,
)
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(seconds=2)
PARENT_EVENT = "api.newsfeed.create"
FREE_EVENT = "api.completion.submission"


async def test_a_gate_that_raises_holds_only_its_job_and_frees_its_event(
    connect: Connect,
) -> None:
    owner, worker = await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    await enqueue_behind_pending_parent(owner, XP_EVENT, PARENT_EVENT, "gate:child")
    # The parent loses its queue row with no terminal log or summary: its status cannot be
    # read (GJ500), so the child's gate raises.
    await owner.execute(
        "DELETE FROM pgqueuer WHERE id = (SELECT queue_job_id FROM jobs WHERE event_key = $1)",
        "gate:child:parent",
    )
    await enqueue_sample(owner, FREE_EVENT, "gate:free")

    claim = await queue_claim(worker, manager, [XP_EVENT, FREE_EVENT], 2, None, WAIT)

    assert [c.row["entrypoint"] for c in claim.jobs] == [FREE_EVENT]
    # The held job's event is free again: another claim could take a later job of it.
    assert claim.outlook is None
    held = await owner.fetchrow(
        "SELECT q.status::text, j.error_code, j.error_msg FROM jobs j "
        "JOIN pgqueuer q ON q.id = j.queue_job_id WHERE j.event_key = 'gate:child'"
    )
    assert held is not None
    assert (held["status"], held["error_code"]) == ("failed", "GateFailed")
    assert "neither an active queue row" in held["error_msg"]
