"""GET /api/v3/internal/alerts and the card and reply bindings: held jobs become durable alert
records, once per (job, generation), and their delivery is recorded intent first."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import httpx
import pytest
from genji_api.queue.enqueue import enqueue_job
from genji_api.settings import ApiSettings
from genji_devstack.payload_samples import SAMPLES
from genji_queue.complete import queue_complete
from genji_sdk import ClaimToken
from litestar.testing import AsyncTestClient

from tests.support import seed_alerts as sa
from tests.support.harness import eventually
from tests.support.lock_waits import calls_waiting_on_locks
from tests.support.queue_helpers import claim_next
from tests.support.served_api import served_api
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue

Client = AsyncTestClient  # type: ignore[type-arg]
MakeKey = Callable[..., Awaitable[str]]
CHANNEL = 1_000_000_000_000_000_008
BASE = "/api/v3/internal/alerts"


async def _poll(api: Client) -> dict[str, dict[str, Any]]:
    response = await api.get(BASE)
    assert response.status_code == 200, response.text
    return {alert["job_id"]: alert for alert in response.json()["alerts"]}


async def _episodes(owner: asyncpg.Connection, job_id: UUID) -> list[tuple[int, str]]:
    rows = await owner.fetch(
        "SELECT retry_generation, state FROM job_alert_episodes WHERE job_id = $1 "
        "ORDER BY retry_generation",
        job_id,
    )
    return [(row["retry_generation"], row["state"]) for row in rows]


def _begin(holder: UUID, fingerprint: str = "f" * 64, **extra: Any) -> dict[str, Any]:
    return {
        "holder": str(holder),
        "version": 1,
        "fingerprint": fingerprint,
        "channel_id": CHANNEL,
        "lease_seconds": 60,
        **extra,
    }


async def _deliver(api: Client, job: UUID, generation: int) -> None:
    """Send the card (if it has none) and the episode's reply, as one supervisor would."""
    holder = uuid4()
    card = (await api.post(f"{BASE}/{job}/card", json=_begin(holder))).json()
    if card["decision"] == "fresh":
        sent = {"channel_id": CHANNEL, "message_id": 10**18 + 3, "version": 1}
        assert (await api.post(f"{BASE}/{job}/card/complete", json=sent)).status_code == 200
    reply = f"{BASE}/{job}/episodes/{generation}/reply"
    body = {k: v for k, v in _begin(holder).items() if k != "version"}
    assert (await api.post(reply, json=body)).json()["decision"] == "fresh"
    sent = {"channel_id": CHANNEL, "message_id": 10**18 + 4 + generation}
    assert (await api.post(f"{reply}/complete", json=sent)).status_code == 200


async def test_held_bot_and_api_jobs_open_one_episode_each(
    api: Client, owner: asyncpg.Connection
) -> None:
    bot_job = await sa.held(owner, sa.BOT_EVENT, "bot", "token=hunter2 <@123456789012345678>")
    api_job = await sa.held(owner, sa.API_EVENT, "api")
    # Not held, so never alerted: ready, retrying automatically, released by a shutdown.
    await sa.retrying(owner, sa.BOT_EVENT, "retrying")
    await sa.interrupted(owner, sa.API_EVENT, "interrupted")
    await sa.enqueue(owner, sa.BOT_EVENT, "ready")

    for _ in range(2):
        due = await _poll(api)
        assert set(due) == {str(bot_job), str(api_job)}
    card = due[str(bot_job)]
    assert (card["event_name"], card["state"], card["retry_generation"]) == (
        sa.BOT_EVENT,
        "held",
        0,
    )
    assert card["episode"]["retry_generation"] == 0 and card["retry_enabled"] is True
    assert card["message_id"] is None and card["desired_version"] == 1
    assert "hunter2" not in card["error"] and "<@1" not in card["error"]
    assert due[str(api_job)]["event_name"] == sa.API_EVENT
    assert await _episodes(owner, bot_job) == [(0, "pending")]
    assert await _episodes(owner, api_job) == [(0, "pending")]
    assert await owner.fetchval("SELECT count(*) FROM job_alerts") == 2


async def test_card_and_reply_are_recorded_intent_first_and_leave_the_work_list(
    api: Client, owner: asyncpg.Connection
) -> None:
    job = await sa.held(owner, sa.BOT_EVENT, "deliver")
    await _poll(api)
    mine, theirs = uuid4(), uuid4()

    begun = await api.post(f"{BASE}/{job}/card", json=_begin(mine))
    assert begun.json()["decision"] == "fresh"
    # Another supervisor leaves a fresh intent alone; its holder reconciles it.
    assert (await api.post(f"{BASE}/{job}/card", json=_begin(theirs))).json()["decision"] == "busy"
    again = await api.post(f"{BASE}/{job}/card", json=_begin(mine))
    assert again.json()["decision"] == "reconcile"
    assert await owner.fetchval("SELECT message_id FROM job_alerts WHERE job_id = $1", job) is None

    done = await api.post(
        f"{BASE}/{job}/card/complete",
        json={"channel_id": CHANNEL, "message_id": 10**18 + 1, "version": 1},
    )
    assert done.json()["message_id"] == 10**18 + 1
    assert (await api.post(f"{BASE}/{job}/card", json=_begin(theirs))).json()["decision"] == (
        "completed"
    )
    assert str(job) in await _poll(api)  # the reply is still due
    assert await _episodes(owner, job) == [(0, "pending")]

    reply = f"{BASE}/{job}/episodes/0/reply"
    body = {k: v for k, v in _begin(mine).items() if k != "version"}
    assert (await api.post(reply, json=body)).json()["decision"] == "fresh"
    assert await _episodes(owner, job) == [(0, "pending")]  # not notified before delivery
    notified = await api.post(
        f"{reply}/complete", json={"channel_id": CHANNEL, "message_id": 10**18 + 2}
    )
    assert notified.json()["notified"] is True
    assert await _episodes(owner, job) == [(0, "notified")]
    assert str(job) not in await _poll(api)


async def test_a_new_generation_failing_again_is_a_new_episode_and_moves_the_card(
    api: Client, owner: asyncpg.Connection
) -> None:
    job = await sa.held(owner, sa.BOT_EVENT, "again")
    await _poll(api)
    await _deliver(api, job, 0)
    assert str(job) not in await _poll(api)

    await sa.retry(owner, job)
    queued = (await _poll(api))[str(job)]
    assert (queued["state"], queued["retry_enabled"], queued["episode"]) == ("pending", False, None)
    assert queued["desired_version"] == 2
    assert await _episodes(owner, job) == [(0, "notified")]  # queued is not a failure

    await sa.hold(owner, job, "boom again")
    failed = (await _poll(api))[str(job)]
    assert failed["state"] == "held" and failed["retry_generation"] == 1
    assert failed["episode"]["retry_generation"] == 1
    assert failed["desired_version"] == 3
    assert await _episodes(owner, job) == [(0, "notified"), (1, "pending")]


async def test_a_dependent_resumed_by_its_parents_success_and_held_again_is_a_new_episode(
    api: Client, owner: asyncpg.Connection
) -> None:
    parent = await sa.enqueue(owner, sa.API_EVENT, "parent")
    async with owner.transaction():
        child = (
            await enqueue_job(
                owner,
                payload=SAMPLES[sa.BOT_EVENT],
                event_key="alerts:child",
                entity_key="alerts:child",
                depends_on=parent,
            )
        ).id
    await sa.hold(owner, parent)
    # The start gate holds the dependent of a held parent.
    assert await claim_next(owner, uuid4(), sa.BOT_EVENT) is None
    held = (await _poll(api))[str(child)]
    assert (held["state"], held["retry_generation"]) == ("held", 0)
    await _deliver(api, child, 0)

    # The parent is retried and succeeds: the dependent runs again by itself, and fails.
    await sa.retry(owner, parent)
    claim = await claim_next(owner, uuid4(), sa.API_EVENT)
    assert claim is not None and claim.queue_manager_id is not None
    assert await queue_complete(owner, ClaimToken(claim.id, claim.queue_manager_id, claim.updated))
    resumed = (await _poll(api))[str(child)]
    assert (resumed["state"], resumed["retry_generation"]) == ("pending", 1)
    attempts = await owner.fetchval(
        "SELECT q.attempts FROM pgqueuer q JOIN jobs j ON j.queue_job_id = q.id WHERE j.id = $1",
        child,
    )
    assert attempts == 0, "a fresh budget, as after a retry"
    logged = await owner.fetchval(
        "SELECT count(*) FROM pgqueuer_log l JOIN jobs j ON j.queue_job_id = l.job_id "
        "WHERE j.id = $1 AND l.traceback->>'exception_type' = 'WaitOver'",
        child,
    )
    assert logged == 1
    await sa.hold(owner, child, "boom after the parent")

    failed = (await _poll(api))[str(child)]
    assert failed["state"] == "held" and failed["episode"]["retry_generation"] == 1
    assert await _episodes(owner, child) == [(0, "notified"), (1, "pending")]


async def test_a_retry_committed_while_the_reconcile_waits_for_the_job_opens_no_episode(
    api_settings: ApiSettings, owner: asyncpg.Connection, connect: Connect, make_key: MakeKey
) -> None:
    job = await sa.held(owner, sa.BOT_EVENT, "stale")
    retry = await connect()
    transaction = retry.transaction()
    await transaction.start()
    await sa.retry_in(retry, job)
    # The API served in its own thread: this loop must stay free to commit the retry.
    headers = {"X-API-KEY": await make_key(superuser=True)}
    with served_api(api_settings) as url:
        async with httpx.AsyncClient(base_url=url, headers=headers) as client:
            polling = asyncio.create_task(client.get(BASE))
            await _until_waiting(owner)
            await transaction.commit()
            response = await polling
    assert response.status_code == 200
    # The reconcile saw the job held at generation 0, then read it again under the lock.
    assert str(job) not in {alert["job_id"] for alert in response.json()["alerts"]}
    assert await _episodes(owner, job) == []


async def _until_waiting(owner: asyncpg.Connection) -> None:
    async def reconcile_waits() -> bool:
        return await calls_waiting_on_locks(owner, "job_alerts_reconcile") > 0

    await eventually(reconcile_waits, 10, "the reconcile to wait for the job's row lock")


async def test_the_alert_endpoints_need_jobs_manage(
    api: Client, owner: asyncpg.Connection, make_key: MakeKey
) -> None:
    job = await sa.held(owner, sa.BOT_EVENT, "scope")
    key = await make_key("jobs:read")
    assert (await api.get(BASE, headers={"X-API-KEY": key})).status_code == 401
    refused = await api.post(f"{BASE}/{job}/card", json=_begin(uuid4()), headers={"X-API-KEY": key})
    assert refused.status_code == 401
    assert await owner.fetchval("SELECT count(*) FROM job_alerts") == 0
    manager = await make_key("jobs:manage")
    assert (await api.get(BASE, headers={"X-API-KEY": manager})).status_code == 200
    assert (await api.post(f"{BASE}/{uuid4()}/card", json=_begin(uuid4()))).status_code == 404
