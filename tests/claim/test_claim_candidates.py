"""Which events' ready jobs one queue_claim call takes, now that it looks only at events with a
queued job: every named, claimable event whose one running slot is free gives its next ready
job; nothing else does."""

from datetime import timedelta
from uuid import uuid4

import pytest
from genji_queue.claim import queue_claim

from tests.support.queue_helpers import XP_EVENT, enqueue_sample, register_worker
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

WAIT = timedelta(seconds=2)
# Spread over the alphabet, with queued events the claim does not name in between, so a scan
# that stops early or skips an event leaves one of these unclaimed.
READY = ["api.completion.submission", "api.newsfeed.create", XP_EVENT]
RUNNING = "api.map_edit.created"
DEFERRED = "api.playtest.create"
NOT_NAMED = "api.notification.delivery"
API_OWNED = "completion.ocr.requested"


async def test_q08_a_claim_takes_the_next_ready_job_of_every_named_event_not_running(
    connect: Connect,
) -> None:
    owner, worker = await connect(), await connect("worker")
    manager = await register_worker(worker, uuid4())
    for event in [*READY, RUNNING, DEFERRED, NOT_NAMED, API_OWNED]:
        for n in range(2):
            await enqueue_sample(owner, event, f"{event}:{n}")
    assert len((await queue_claim(worker, manager, [RUNNING], 1, None, WAIT)).jobs) == 1
    await owner.execute(
        "UPDATE pgqueuer SET execute_after = now() + interval '1 hour' WHERE entrypoint = $1",
        DEFERRED,
    )
    first = {
        r["entrypoint"]: r["id"]
        for r in await owner.fetch(
            "SELECT entrypoint, min(id) AS id FROM pgqueuer WHERE status = 'queued'"
            " GROUP BY entrypoint"
        )
    }

    named = [XP_EVENT, RUNNING, API_OWNED, DEFERRED, *READY[:2]]
    claimed = (await queue_claim(worker, manager, named, 10, None, WAIT)).jobs

    assert sorted((c.row["entrypoint"], c.row["id"]) for c in claimed) == sorted(
        (event, first[event]) for event in READY
    )
    running = await owner.fetch(
        "SELECT entrypoint FROM pgqueuer WHERE status = 'picked' ORDER BY entrypoint"
    )
    assert [r["entrypoint"] for r in running] == sorted([*READY, RUNNING])
