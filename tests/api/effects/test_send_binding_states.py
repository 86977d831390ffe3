"""The send bindings' state machine, through the endpoints: what each recorded state accepts."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient
from seed_effects import SENDS, binding_rows, claimed

pytestmark = pytest.mark.queue

EVENT = "api.completion.submission"


async def test_completing_again_needs_the_same_ids(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    headers = job.headers("card:verification")
    await api.post(SENDS, json={"destination": "channel:5", "fingerprint": "f"}, headers=headers)
    ids = {"destination": "channel:5", "channel_id": 5, "message_id": 50}
    first = await api.post(SENDS + "/complete", json=ids, headers=headers)
    again = await api.post(SENDS + "/complete", json=ids, headers=headers)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json() == first.json()
    for other in ({**ids, "message_id": 51}, {**ids, "channel_id": 6}, {**ids, "thread_id": 7}):
        conflict = await api.post(SENDS + "/complete", json=other, headers=headers)
        assert conflict.status_code == 409, other
    [row] = await binding_rows(owner, job)
    assert (row["state"], row["channel_id"], row["message_id"], row["thread_id"]) == (
        "completed",
        5,
        50,
        None,
    )


async def test_a_settled_destination_cannot_be_completed_or_settled_otherwise(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    headers = job.headers("card:verification")
    skipped = await api.post(
        SENDS + "/settle",
        json={"destination": "channel:5", "state": "skipped", "reason": "superseded"},
        headers=headers,
    )
    assert skipped.status_code == 200 and skipped.json()["state"] == "skipped"
    for path, body in (
        ("/complete", {"destination": "channel:5", "channel_id": 5, "message_id": 50}),
        ("/settle", {"destination": "channel:5", "state": "failed"}),
        ("/settle", {"destination": "channel:5", "state": "uncertain"}),
    ):
        refused = await api.post(SENDS + path, json=body, headers=headers)
        assert refused.status_code == 409, (path, body)
    replay = await api.post(
        SENDS, json={"destination": "channel:5", "fingerprint": "f"}, headers=headers
    )
    assert (replay.json()["fresh"], replay.json()["state"]) == (False, "skipped")
    released = await api.post(
        SENDS + "/release", json={"destination": "channel:5"}, headers=headers
    )
    assert released.json() == {"released": False}
    [row] = await binding_rows(owner, job)
    assert (row["state"], row["message_id"]) == ("skipped", None)


async def test_an_intent_may_not_be_skipped_and_a_completed_send_not_released(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    headers = job.headers("card:verification")
    await api.post(SENDS, json={"destination": "channel:5", "fingerprint": "f"}, headers=headers)
    skip = await api.post(
        SENDS + "/settle", json={"destination": "channel:5", "state": "skipped"}, headers=headers
    )
    assert skip.status_code == 409
    await api.post(
        SENDS + "/complete",
        json={"destination": "channel:5", "channel_id": 5, "message_id": 50},
        headers=headers,
    )
    released = await api.post(
        SENDS + "/release", json={"destination": "channel:5"}, headers=headers
    )
    assert released.json() == {"released": False}
    [row] = await binding_rows(owner, job)
    assert (row["state"], row["message_id"]) == ("completed", 50)


async def test_evidence_for_a_send_never_begun_is_a_404(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    headers = job.headers("card:verification")
    for path, body in (
        ("/complete", {"destination": "channel:9", "channel_id": 9, "message_id": 90}),
        ("/settle", {"destination": "channel:9", "state": "uncertain"}),
    ):
        missing = await api.post(SENDS + path, json=body, headers=headers)
        assert missing.status_code == 404, path
    assert await binding_rows(owner, job) == []


async def test_an_uncertain_send_completes_when_evidence_turns_up(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    headers = job.headers("card:verification")
    await api.post(SENDS, json={"destination": "channel:5", "fingerprint": "f"}, headers=headers)
    await api.post(
        SENDS + "/settle", json={"destination": "channel:5", "state": "uncertain"}, headers=headers
    )
    done = await api.post(
        SENDS + "/complete",
        json={"destination": "channel:5", "channel_id": 5, "message_id": 50},
        headers=headers,
    )
    assert done.status_code == 200 and done.json()["state"] == "completed"
