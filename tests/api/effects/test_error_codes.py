"""The bot decides on the error body's code, never on its sentence.

A stale claim's 409 from the real API carries `claim_lost`, which the bot's client turns into
OwnershipLost; an effect recorded with another request carries `effect_mismatch`, an ordinary
conflict. A sentence alone, even the lost claim's own, decides nothing.
"""

from __future__ import annotations

import asyncpg
import httpx
import pytest
from genji_bot.api import ApiConflict, _raise_for
from genji_sdk.failures import OwnershipLost
from litestar.testing import AsyncTestClient

from tests.support.seed_effects import Sends, claimed, take_over

pytestmark = pytest.mark.queue

EVENT = "api.notification.delivery"
EFFECT = "notification:dm"


async def test_a_stale_claims_answer_is_ownership_lost_in_the_bot(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    sends = Sends(api, job, EFFECT)
    assert (await sends.begin("dm:1")).status_code == 200
    await take_over(owner, job, EVENT)
    stale = await sends.begin("dm:2")
    assert (stale.status_code, stale.json()["code"]) == (409, "claim_lost")
    with pytest.raises(OwnershipLost):
        _raise_for(stale)


async def test_an_effect_recorded_with_another_request_is_an_ordinary_conflict(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, EVENT)
    sends = Sends(api, job, EFFECT)
    assert (await sends.begin("dm:1")).status_code == 200
    assert (await sends.complete("dm:1", channel_id=11, message_id=12)).status_code == 200
    other = await sends.complete("dm:1", channel_id=11, message_id=13)
    assert (other.status_code, other.json()["code"]) == (409, "effect_mismatch")
    with pytest.raises(ApiConflict) as raised:
        _raise_for(other)
    assert raised.value.code == "effect_mismatch"


def test_the_lost_claims_sentence_without_its_code_is_a_conflict() -> None:
    sentence = "The job's claim is no longer active."
    reworded = httpx.Response(
        409, json={"error": "Claim gone.", "extra": None, "code": "claim_lost"}
    )
    with pytest.raises(OwnershipLost):
        _raise_for(reworded)
    bare = httpx.Response(409, json={"error": sentence, "extra": None, "code": "conflict"})
    with pytest.raises(ApiConflict):
        _raise_for(bare)
