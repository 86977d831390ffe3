"""Two moderators pressing Accept and Reject at once: with `if_pending` the row lock orders
their verdicts, the first is recorded and the second is refused with 409."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
import pytest

from tests.api.concurrent_client import concurrent_api_fixture  # noqa: F401  (the fixture)
from tests.support import seed
from tests.support import seed_completions as sc
from tests.support.harness import eventually
from tests.support.testdb import Connect

from .jobs_view import jobs_of

pytestmark = pytest.mark.queue


async def _waiting_for_the_row(probe: asyncpg.Connection) -> bool:
    count: int = await probe.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND query LIKE '%FROM core.completions WHERE id%FOR UPDATE'"
    )
    return count >= 2


async def test_accept_and_reject_at_once_record_one_verdict_and_refuse_the_other(
    concurrent_api: httpx.AsyncClient, owner: asyncpg.Connection, connect: Connect
) -> None:
    map_id, _ = await seed.game_map(owner)
    player = await seed.user(owner)
    accepting, rejecting = await seed.user(owner), await seed.user(owner)
    completion_id = await sc.pending_completion(owner, map_id, player)
    url = f"/api/v3/completions/{completion_id}/verification"
    probe = await connect()
    # Both requests wait for the completion's row, so neither can read it before the other.
    barrier = owner.transaction()
    await barrier.start()
    await owner.execute("SELECT 1 FROM core.completions WHERE id = $1 FOR UPDATE", completion_id)
    verdicts = [
        asyncio.ensure_future(
            concurrent_api.put(
                url, json={"verified": True, "verified_by": accepting, "if_pending": True}
            )
        ),
        asyncio.ensure_future(
            concurrent_api.put(
                url,
                json={
                    "verified": False,
                    "verified_by": rejecting,
                    "reason": "no video",
                    "if_pending": True,
                },
            )
        ),
    ]
    try:
        await eventually(lambda: _waiting_for_the_row(probe), what="both verdicts at the row lock")
    finally:
        await barrier.rollback()
    responses = await asyncio.gather(*verdicts)

    assert sorted(r.status_code for r in responses) == [200, 409], [r.text for r in responses]
    refused = next(r for r in responses if r.status_code == 409)
    assert refused.json()["error"].startswith(f"Completion {completion_id} was already ")
    transitions = await owner.fetchval(
        "SELECT count(*) FROM completions.verification_transitions WHERE completion_id = $1",
        completion_id,
    )
    assert transitions == 1
    assert len(await jobs_of(owner, "api.completion.verification")) == 1

    # The recorded verdict's request delivered again is answered with its job, not refused.
    recorded = next(r for r in responses if r.status_code == 200)
    verifier = await _recorded_by(owner, completion_id)
    body = next(
        b
        for b in (
            {"verified": True, "verified_by": accepting, "if_pending": True},
            {"verified": False, "verified_by": rejecting, "reason": "no video", "if_pending": True},
        )
        if b["verified_by"] == verifier
    )
    again = await concurrent_api.put(url, json=body)
    assert (again.status_code, again.json()["id"]) == (200, recorded.json()["id"])


async def _recorded_by(owner: asyncpg.Connection, completion_id: int) -> int:
    verifier: int = await owner.fetchval(
        "SELECT verified_by FROM core.completions WHERE id = $1", completion_id
    )
    return verifier


async def test_without_if_pending_a_later_verdict_still_replaces_the_first(
    concurrent_api: httpx.AsyncClient, owner: asyncpg.Connection
) -> None:
    map_id, _ = await seed.game_map(owner)
    player, moderator = await seed.user(owner), await seed.user(owner)
    completion_id = await sc.pending_completion(owner, map_id, player)
    url = f"/api/v3/completions/{completion_id}/verification"
    first = await concurrent_api.put(url, json={"verified": True, "verified_by": moderator})
    second = await concurrent_api.put(
        url, json={"verified": False, "verified_by": moderator, "reason": "late"}
    )
    assert (first.status_code, second.status_code) == (200, 200)
    assert len(await jobs_of(owner, "api.completion.verification")) == 2
