"""recovery_resolve_effect: an uncertain send blocks a retry until the operator records where
the message is, or that it must be sent again."""

from __future__ import annotations

import json

import msgspec
import pytest
from genji_queue.errors import InvalidJobRequestError
from genji_queue.recovery_resolve_effect import recovery_resolve_effect
from genji_queue.recovery_retry import recovery_retry
from genji_sdk.recovery import OperatorContext, ResolveDecision, ResolveEffectRequest

from tests.support.held_jobs import OPERATOR, SEND, UNCERTAIN, held_job, retry_request
from tests.support.testdb import Connect

pytestmark = pytest.mark.queue


def resolve(
    decision: ResolveDecision,
    key: str = "resolve-1",
    effect: tuple[str, str] = UNCERTAIN,
    message_id: int | None = None,
) -> ResolveEffectRequest:
    return ResolveEffectRequest(
        effect_key=effect[0],
        destination=effect[1],
        decision=decision,
        expected_generation=0,
        idempotency_key=key,
        actor_id=OPERATOR,
        context=OperatorContext(source="cli"),
        channel_id=5 if message_id else None,
        message_id=message_id,
        reason="checked the channel",
    )


async def test_a_located_send_is_completed_with_its_ids_and_the_retry_goes_ahead(
    connect: Connect,
) -> None:
    conn = await connect()
    job_id = await held_job(conn, uncertain=True)
    refused = await recovery_retry(conn, job_id, retry_request("r1"))
    assert (refused.outcome, refused.state) == ("reconciliation_required", "held")
    assert await conn.fetchval("SELECT count(*) FROM job_actions") == 0

    with pytest.raises(InvalidJobRequestError, match="message or thread id"):
        await recovery_resolve_effect(conn, job_id, resolve("located"))
    # A message found in another channel than the one the send went to is not this send.
    elsewhere = msgspec.structs.replace(resolve("located", message_id=777), channel_id=6)
    with pytest.raises(InvalidJobRequestError, match="in channel 6, but channel:5 names"):
        await recovery_resolve_effect(conn, job_id, elsewhere)
    not_uncertain = await recovery_resolve_effect(conn, job_id, resolve("resend", effect=SEND))
    assert not_uncertain.outcome == "not_uncertain"

    located = await recovery_resolve_effect(conn, job_id, resolve("located", message_id=777))
    assert (located.outcome, located.state, located.retry_generation) == ("accepted", "held", 0)
    binding = await conn.fetchrow(
        "SELECT * FROM effect_bindings WHERE job_id = $1 AND effect_key = $2", job_id, UNCERTAIN[0]
    )
    assert (binding["state"], binding["channel_id"], binding["message_id"]) == ("completed", 5, 777)
    assert json.loads(binding["detail"])["resolved_by"] == located.action_id
    again = await recovery_resolve_effect(conn, job_id, resolve("located", message_id=777))
    assert (again.outcome, again.action_id) == ("duplicate", located.action_id)

    retried = await recovery_retry(conn, job_id, retry_request("r2"))
    assert retried.outcome == "accepted"
    audit = await conn.fetch("SELECT action, reason FROM job_actions ORDER BY id")
    assert [(a["action"], a["reason"]) for a in audit] == [
        ("resolve_effect", "checked the channel"),
        ("retry", None),
    ]


async def test_a_resend_decision_forgets_the_binding_and_keeps_it_in_the_audit(
    connect: Connect,
) -> None:
    conn = await connect()
    job_id = await held_job(conn, uncertain=True)
    resent = await recovery_resolve_effect(conn, job_id, resolve("resend"))
    assert resent.outcome == "accepted"
    remaining = await conn.fetch(
        "SELECT effect_key, state FROM effect_bindings WHERE job_id = $1", job_id
    )
    assert [(b["effect_key"], b["state"]) for b in remaining] == [(SEND[0], "completed")]
    detail = json.loads(
        await conn.fetchval("SELECT detail FROM job_actions WHERE id = $1", resent.action_id)
    )
    assert (detail["decision"], detail["binding"]["state"]) == ("resend", "uncertain")
    assert (await recovery_retry(conn, job_id, retry_request())).outcome == "accepted"
