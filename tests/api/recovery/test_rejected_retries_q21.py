"""Q21: a retry from an actor who is not an operator, with a key lacking jobs:manage, from a
superuser key for a non-operator, from a forged or mismatched Discord context, for a stale
generation, or of a job that already succeeded is rejected, and no queue, audit or business
row changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

import asyncpg
import pytest
from genji_api.auth import scopes
from genji_queue.recovery_retry import recovery_retry
from genji_sdk.recovery import OperatorContext, RetryRequest
from litestar import Litestar

from .recovery_api import (
    JOBS,
    OPERATOR,
    MakeKey,
    bind_alert,
    client,
    discord_context,
    held_job,
    retry_body,
    run_and_complete,
    snapshot,
)
from .recovery_fixtures import api_settings_fixture, asgi_app_fixture, service_db_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.queue

STRANGER = 1_055_555_555_555_555_555
OTHER = 1_000_000_000_000_000_099
NOT_JOBS_MANAGE = tuple(sorted(scopes.ALL - {scopes.JOBS_MANAGE}))


@dataclass(frozen=True)
class Rejected:
    status: int
    body: dict[str, Any]
    key_scopes: tuple[str, ...] = (scopes.JOBS_MANAGE,)
    superuser: bool = False
    outcome: str | None = None
    succeeded_first: bool = False
    error: str = ""
    """A word of the error body, naming why it was refused."""


CASES = {
    "actor-not-operator": Rejected(403, retry_body("r-1", 0, actor=STRANGER), error="operator"),
    "key-without-jobs-manage": Rejected(
        401, retry_body("r-1", 0), key_scopes=NOT_JOBS_MANAGE, error="jobs:manage"
    ),
    "superuser-key-non-operator": Rejected(
        403, retry_body("r-1", 0, actor=STRANGER), key_scopes=(), superuser=True, error="operator"
    ),
    "discord-wrong-guild": Rejected(
        403,
        retry_body("901", 0, context=discord_context(901, guild_id=OTHER)),
        key_scopes=tuple(scopes.BOT),
        error="guild",
    ),
    "discord-wrong-channel": Rejected(
        403,
        retry_body("901", 0, context=discord_context(901, channel_id=OTHER)),
        key_scopes=tuple(scopes.BOT),
        error="channel",
    ),
    "discord-wrong-message": Rejected(
        403,
        retry_body("901", 0, context=discord_context(901, message_id=OTHER)),
        key_scopes=tuple(scopes.BOT),
        error="alert card",
    ),
    "discord-interaction-is-not-the-key": Rejected(
        403,
        retry_body("902", 0, context=discord_context(901)),
        key_scopes=tuple(scopes.BOT),
        error="interaction",
    ),
    "stale-generation": Rejected(200, retry_body("r-1", 3), outcome="stale_generation"),
    "already-succeeded": Rejected(
        200, retry_body("r-1", 0), outcome="succeeded", succeeded_first=True
    ),
}


async def _job(owner: asyncpg.Connection, succeeded: bool) -> UUID:
    """A held job with its alert card; or one that was held, alerted, retried and succeeded."""
    job_id = await held_job(owner, "xp:q21")
    await bind_alert(owner, job_id)
    if succeeded:
        earlier = RetryRequest(
            expected_generation=0,
            idempotency_key="earlier-retry",
            actor_id=OPERATOR,
            context=OperatorContext(source="cli"),
        )
        retried = await recovery_retry(owner, job_id, earlier)
        assert retried.outcome == "accepted"
        await run_and_complete(owner)
    return job_id


@pytest.mark.parametrize("case", list(CASES.values()), ids=[f"q21-{name}" for name in CASES])
async def test_q21_a_rejected_retry_changes_nothing(
    asgi_app: Litestar, owner: asyncpg.Connection, make_key: MakeKey, case: Rejected
) -> None:
    job_id = await _job(owner, case.succeeded_first)
    key = await make_key(*case.key_scopes, superuser=case.superuser, username="caller")
    bot_key = await make_key(*scopes.BOT, username="bot")
    before = await snapshot(owner)
    async with client(asgi_app, key) as caller:
        answer = await caller.post(f"{JOBS}/{job_id}/retry", json=case.body)
    assert answer.status_code == case.status, answer.text
    body = answer.json()
    if case.outcome is None:
        assert set(body) == {"error", "extra", "code"} and case.error in body["error"]
    else:
        assert (body["outcome"], body["action_id"]) == (case.outcome, None)
    assert await snapshot(owner) == before

    if case.succeeded_first:
        return
    # The same job accepts the request its alert card really sends, from the operator.
    good = retry_body("903", 0, context=discord_context(903))
    async with client(asgi_app, bot_key) as bot:
        accepted = await bot.post(f"{JOBS}/{job_id}/retry", json=good)
    assert accepted.json()["outcome"] == "accepted", accepted.text
