"""Which jobs may ask an endpoint for which effects: checked in the database in the transaction
that would write the receipt or the binding, so a refused request leaves nothing behind.
Ordinary clients, without the job context headers, keep their contracts."""

from __future__ import annotations

import asyncpg
import httpx
import pytest
from genji_api.effects.mirrors import MIRRORS, MirrorSpec, SentIds
from genji_api.errors import NotFoundError
from genji_queue.effect_actions import effect_action_check
from genji_queue.errors import EffectNotAllowedError
from genji_sdk.effect_headers import JOB_HEADER
from litestar.testing import AsyncTestClient

from tests.support import seed
from tests.support.seed_effects import SENDS, Sends, binding_rows, claimed, receipts

pytestmark = pytest.mark.queue

XP_BODY = {"amount": 5, "type": "Completion"}


async def _grant(
    api: AsyncTestClient,  # type: ignore[type-arg]
    user_id: int,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    return await api.post(f"/api/v3/lootbox/users/{user_id}/xp", json=XP_BODY, headers=headers)


async def _grants(owner: asyncpg.Connection) -> int:  # type: ignore[type-arg]
    count: int = await owner.fetchval("SELECT count(*) FROM lootbox.xp_grants")
    return count


async def test_an_effect_the_endpoint_does_not_perform_is_a_400_without_a_receipt(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    job = await claimed(owner, "api.completion.verification")
    response = await _grant(api, user_id, job.headers("newsfeed:x"))
    assert response.status_code == 400
    assert response.json() == {
        "error": "Effect 'newsfeed:x' is not performed here; this endpoint performs xp.",
        "extra": None,
        "code": "bad_request",
    }
    assert (await receipts(owner, job), await _grants(owner)) == (0, 0)


async def test_a_job_whose_event_may_not_request_the_effect_is_a_400_without_a_receipt(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    job = await claimed(owner, "api.newsfeed.create")
    response = await _grant(api, user_id, job.headers("xp"))
    assert response.status_code == 400
    assert response.json()["error"] == f"Effect 'xp' may not be requested by job {job.job_id}."
    assert (await receipts(owner, job), await _grants(owner)) == (0, 0)


async def test_only_bot_jobs_may_send(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, "map.linked.newsfeed.requested")
    assert (await Sends(api, job, "post").begin("channel:1")).status_code == 400
    assert await binding_rows(owner, job) == []


async def test_the_database_check_lets_no_event_through_a_null_in_the_allowed_list(
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, "api.newsfeed.create")
    assert await effect_action_check(owner, job.job_id, "xp", ["api.newsfeed.create"]) == (
        "api.newsfeed.create"
    )
    with pytest.raises(EffectNotAllowedError):
        await effect_action_check(owner, job.job_id, "xp", ["api.xp.grant"])
    with pytest.raises(asyncpg.PostgresError) as raised:
        await owner.fetchval(
            "SELECT effect_action_check($1, 'xp', ARRAY[NULL, 'api.xp.grant'])", job.job_id
        )
    assert raised.value.sqlstate == "GJ007"


async def test_ordinary_clients_keep_their_contracts(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    user_id = await seed.user(owner)
    plain = await _grant(api, user_id)
    assert plain.status_code == 201 and plain.json()["new_amount"] == 5
    assert await owner.fetchval("SELECT count(*) FROM effect_receipts") == 0
    no_context = await api.post(SENDS, json={"destination": "channel:1", "fingerprint": "f"})
    assert no_context.status_code == 400
    assert no_context.json()["error"] == "Send bindings need the job context headers."
    job = await claimed(owner, "api.completion.verification")
    half = {JOB_HEADER: str(job.job_id)}
    partial = await _grant(api, user_id, half)
    assert partial.status_code == 400
    assert await _grants(owner) == 1


async def test_a_rolled_back_effect_leaves_no_receipt_and_its_key_stays_free(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
) -> None:
    job = await claimed(owner, "api.completion.verification")
    missing = await _grant(api, 424242, job.headers("xp"))
    assert missing.status_code == 404
    assert (await receipts(owner, job), await _grants(owner)) == (0, 0)
    user_id = await seed.user(owner)
    granted = await _grant(api, user_id, job.headers("xp"))
    assert granted.status_code == 201
    assert (await receipts(owner, job), await _grants(owner)) == (1, 1)


async def test_a_completion_whose_mirror_fails_or_is_not_allowed_rolls_back(
    api: AsyncTestClient,
    owner: asyncpg.Connection,  # type: ignore[type-arg]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def write(conn: asyncpg.Connection, entity_id: int, ids: SentIds) -> None:  # type: ignore[type-arg]
        await conn.execute("UPDATE core.users SET nickname = 'mirrored' WHERE id = $1", entity_id)
        if ids.message_id == 13:
            raise NotFoundError("No such card.")

    monkeypatch.setitem(
        MIRRORS, "test.card", MirrorSpec(frozenset({"api.completion.submission"}), write)
    )
    user_id = await seed.user(owner)
    mirror = {"kind": "test.card", "entity_id": user_id}
    allowed = Sends(api, await claimed(owner, "api.completion.submission"), "card")
    other = Sends(api, await claimed(owner, "api.completion.upvote"), "card")
    for sends, message_id, status in ((allowed, 13, 404), (other, 14, 400)):
        await sends.begin("channel:1")
        refused = await sends.complete(
            "channel:1", channel_id=1, message_id=message_id, mirror=mirror
        )
        assert refused.status_code == status
        [row] = await binding_rows(owner, sends.job)
        assert (row["state"], row["message_id"]) == ("intended", None)
    assert await _nickname(owner, user_id) != "mirrored"

    done = await allowed.complete("channel:1", channel_id=1, message_id=15, mirror=mirror)
    assert done.status_code == 200
    assert await _nickname(owner, user_id) == "mirrored"


async def _nickname(owner: asyncpg.Connection, user_id: int) -> str:  # type: ignore[type-arg]
    nickname: str = await owner.fetchval("SELECT nickname FROM core.users WHERE id = $1", user_id)
    return nickname
