"""The send bindings' state machine, through the endpoints: what each recorded state accepts."""

from __future__ import annotations

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from tests.support.seed_effects import Sends, binding_rows, claimed

pytestmark = pytest.mark.queue

EVENT = "api.completion.submission"
CARD = "channel:5"


async def _sends(api: AsyncTestClient, owner: asyncpg.Connection) -> Sends:  # type: ignore[type-arg]
    return Sends(api, await claimed(owner, EVENT), "card:verification")


async def test_completing_again_needs_the_same_ids(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    sends = await _sends(api, owner)
    await sends.begin(CARD)
    ids = {"channel_id": 5, "message_id": 50}
    first = await sends.complete(CARD, **ids)
    again = await sends.complete(CARD, **ids)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json() == first.json()
    for other in ({**ids, "message_id": 51}, {**ids, "channel_id": 6}, {**ids, "thread_id": 7}):
        assert (await sends.complete(CARD, **other)).status_code == 409, other
    [row] = await binding_rows(owner, sends.job)
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
    sends = await _sends(api, owner)
    skipped = await sends.settle(CARD, "skipped", "superseded")
    assert skipped.status_code == 200 and skipped.json()["state"] == "skipped"
    for what, refused in (
        ("complete", await sends.complete(CARD, channel_id=5, message_id=50)),
        ("fail", await sends.settle(CARD, "failed")),
        ("uncertain", await sends.settle(CARD, "uncertain")),
    ):
        assert refused.status_code == 409, what
    replay = await sends.begin(CARD)
    assert (replay.json()["fresh"], replay.json()["state"]) == (False, "skipped")
    assert (await sends.release(CARD)).json() == {"released": False}
    [row] = await binding_rows(owner, sends.job)
    assert (row["state"], row["message_id"]) == ("skipped", None)


async def test_an_intent_may_not_be_skipped_and_a_completed_send_not_released(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    sends = await _sends(api, owner)
    await sends.begin(CARD)
    assert (await sends.settle(CARD, "skipped")).status_code == 409
    await sends.complete(CARD, channel_id=5, message_id=50)
    assert (await sends.release(CARD)).json() == {"released": False}
    [row] = await binding_rows(owner, sends.job)
    assert (row["state"], row["message_id"]) == ("completed", 50)


async def test_evidence_for_a_send_never_begun_is_a_404(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    sends = await _sends(api, owner)
    assert (await sends.complete("channel:9", channel_id=9, message_id=90)).status_code == 404
    assert (await sends.settle("channel:9", "uncertain")).status_code == 404
    assert await binding_rows(owner, sends.job) == []


async def test_an_uncertain_send_completes_when_evidence_turns_up(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    sends = await _sends(api, owner)
    await sends.begin(CARD)
    await sends.settle(CARD, "uncertain")
    done = await sends.complete(CARD, channel_id=5, message_id=50)
    assert done.status_code == 200 and done.json()["state"] == "completed"
