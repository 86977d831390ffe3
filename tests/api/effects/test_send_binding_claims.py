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
from seed_effects import SENDS, binding_rows, claimed, take_over

pytestmark = pytest.mark.queue

EVENT = "api.notification.delivery"
LOST = {"error": "The job's claim is no longer active.", "extra": None}


async def test_a_begin_records_the_intent_once_and_a_replay_reads_it(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    body = {"destination": "dm:7", "fingerprint": "f1"}
    first = await api.post(SENDS, json=body, headers=job.headers("dm:7"))
    again = await api.post(SENDS, json={**body, "fingerprint": "f2"}, headers=job.headers("dm:7"))
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
    headers = job.headers("notification:dm")
    begun = await api.post(SENDS, json={"destination": "dm:1", "fingerprint": "f"}, headers=headers)
    assert begun.json()["fresh"] is True
    await take_over(owner, job, EVENT)
    before = await binding_rows(owner, job)

    for path, body in (
        ("", {"destination": "dm:2", "fingerprint": "f"}),
        ("/release", {"destination": "dm:1"}),
        ("/settle", {"destination": "dm:1", "state": "failed", "reason": "closed"}),
        ("/settle", {"destination": "dm:3", "state": "skipped", "reason": "opted out"}),
    ):
        stale = await api.post(SENDS + path, json=body, headers=headers)
        assert (stale.status_code, stale.json()) == (409, LOST), (path, body)
    assert await binding_rows(owner, job) == before

    # A recorded binding can be read back...
    read = await api.post(SENDS, json={"destination": "dm:1", "fingerprint": "f"}, headers=headers)
    assert (read.status_code, read.json()["fresh"], read.json()["state"]) == (
        200,
        False,
        "intended",
    )
    # ...and the ids the stale owner got back are evidence, recorded without a claim.
    done = await api.post(
        SENDS + "/complete",
        json={"destination": "dm:1", "channel_id": 11, "message_id": 12},
        headers=headers,
    )
    assert done.status_code == 200 and done.json()["state"] == "completed"
    [row] = await binding_rows(owner, job)
    assert (row["state"], row["channel_id"], row["message_id"]) == ("completed", 11, 12)


async def test_a_stale_owner_may_mark_its_send_uncertain(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    headers = job.headers("notification:dm")
    await api.post(SENDS, json={"destination": "dm:1", "fingerprint": "f"}, headers=headers)
    await take_over(owner, job, EVENT)
    held = await api.post(
        SENDS + "/settle",
        json={"destination": "dm:1", "state": "uncertain", "reason": "sent, reply lost"},
        headers=headers,
    )
    assert held.status_code == 200
    assert held.json()["state"] == "uncertain"
    assert held.json()["detail"] == {"stage": "uncertain", "reason": "sent, reply lost"}


async def test_only_the_execution_that_recorded_an_intent_may_declare_it_not_sent(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    first = await claimed(owner, EVENT)
    effect = "notification:dm"
    await api.post(
        SENDS, json={"destination": "dm:1", "fingerprint": "f"}, headers=first.headers(effect)
    )
    second = await take_over(owner, first, EVENT)
    headers = second.headers(effect)

    released = await api.post(SENDS + "/release", json={"destination": "dm:1"}, headers=headers)
    assert (released.status_code, released.json()) == (200, {"released": False})
    failed = await api.post(
        SENDS + "/settle",
        json={"destination": "dm:1", "state": "failed", "reason": "closed"},
        headers=headers,
    )
    assert failed.status_code == 409 and failed.json() != LOST
    [row] = await binding_rows(owner, first)
    assert row["state"] == "intended"

    # The new owner's own intent is its to release.
    await api.post(SENDS, json={"destination": "dm:2", "fingerprint": "f"}, headers=headers)
    own = await api.post(SENDS + "/release", json={"destination": "dm:2"}, headers=headers)
    assert own.json() == {"released": True}
    assert [r["destination"] for r in await binding_rows(owner, first)] == ["dm:1"]
