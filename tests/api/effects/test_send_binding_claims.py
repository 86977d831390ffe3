"""The send binding endpoints: the claim decides who may start a decision, evidence needs none.

Beginning a send, releasing an intent, and settling a destination as skipped or failed need the
job's active claim; a stale owner can still read a recorded binding, record the ids it got back
(complete) and mark a send it cannot account for as uncertain. Only the execution that recorded
an intent may declare it not sent.
"""

from __future__ import annotations

import json

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support.seed_effects import Sends, binding_rows, claimed, take_over

pytestmark = pytest.mark.queue

EVENT = "api.notification.delivery"
EFFECT = "notification:dm"
LOST = {"error": "The job's claim is no longer active.", "extra": None, "code": "claim_lost"}


async def test_a_begin_records_the_intent_once_and_a_replay_reads_it(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    sends = Sends(api, job, EFFECT)
    first = await sends.begin("dm:7", "f1")
    again = await sends.begin("dm:7", "f2")
    assert (first.status_code, again.status_code) == (200, 200)
    assert (first.json()["fresh"], again.json()["fresh"]) == (True, False)
    assert again.json() == {**first.json(), "fresh": False}
    # The recorded fingerprint is the one a reconciliation looks for, not the replay's.
    assert first.json()["fingerprint"] == again.json()["fingerprint"] == "f1"
    assert first.json()["detail"] == {"stage": "intended"}
    [row] = await binding_rows(owner, job)
    assert row["state"] == "intended"
    intended_by = json.loads(row["detail"])["intended_by"]
    assert intended_by["manager"] == str(job.claim.queue_manager_id)


async def test_a_stale_claim_cannot_begin_release_or_settle_but_can_complete_with_evidence(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    sends = Sends(api, job, EFFECT)
    assert (await sends.begin("dm:1")).json()["fresh"] is True
    await take_over(owner, job, EVENT)
    before = await binding_rows(owner, job)

    for what, stale in (
        ("begin", await sends.begin("dm:2")),
        ("release", await sends.release("dm:1")),
        ("fail", await sends.settle("dm:1", "failed", "closed")),
        ("skip", await sends.settle("dm:3", "skipped", "opted out")),
    ):
        assert (stale.status_code, stale.json()) == (409, LOST), what
    assert await binding_rows(owner, job) == before

    # A recorded binding can be read back...
    read = await sends.begin("dm:1")
    assert (read.status_code, read.json()["fresh"], read.json()["state"]) == (
        200,
        False,
        "intended",
    )
    # ...and the ids the stale owner got back are evidence, recorded without a claim.
    done = await sends.complete("dm:1", channel_id=11, message_id=12)
    assert done.status_code == 200 and done.json()["state"] == "completed"
    [row] = await binding_rows(owner, job)
    assert (row["state"], row["channel_id"], row["message_id"]) == ("completed", 11, 12)


async def test_a_stale_owner_may_mark_its_send_uncertain(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    sends = Sends(api, job, EFFECT)
    await sends.begin("dm:1")
    await take_over(owner, job, EVENT)
    held = await sends.settle("dm:1", "uncertain", "sent, reply lost")
    assert held.status_code == 200
    assert held.json()["state"] == "uncertain"
    assert held.json()["detail"] == {"stage": "uncertain", "reason": "sent, reply lost"}


async def test_only_the_execution_that_recorded_an_intent_may_declare_it_not_sent(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    first = await claimed(owner, EVENT)
    await Sends(api, first, EFFECT).begin("dm:1")
    sends = Sends(api, await take_over(owner, first, EVENT), EFFECT)

    released = await sends.release("dm:1")
    assert (released.status_code, released.json()) == (200, {"released": False})
    failed = await sends.settle("dm:1", "failed", "closed")
    assert failed.status_code == 409 and failed.json() != LOST
    [row] = await binding_rows(owner, first)
    assert row["state"] == "intended"

    # The new owner's own intent is its to release.
    await sends.begin("dm:2")
    assert (await sends.release("dm:2")).json() == {"released": True}
    assert [r["destination"] for r in await binding_rows(owner, first)] == ["dm:1"]
