"""Q22: a held job with an unresolved send shows it as uncertain, with retry disabled, and its
retry answers reconciliation_required, changing nothing, until resolve-effect records the
located message or the decision to resend; then the retry is accepted."""

from __future__ import annotations

from typing import Any

import asyncpg
import pytest
from genji_api.auth import scopes
from litestar import Litestar

from .recovery_api import (
    JOBS,
    OPERATOR,
    UNCERTAIN,
    MakeKey,
    client,
    held_job,
    retry_body,
    snapshot,
    status_and_details,
)
from .recovery_fixtures import api_settings_fixture, asgi_app_fixture, service_db_fixture  # noqa: F401  (fixtures)

pytestmark = pytest.mark.queue

LOCATED_MESSAGE = 1_000_000_000_000_000_777


def _resolution(decision: str) -> dict[str, Any]:
    effect_key, destination = UNCERTAIN
    body: dict[str, Any] = {
        "effect_key": effect_key,
        "destination": destination,
        "decision": decision,
        "expected_generation": 0,
        "idempotency_key": f"resolve-{decision}",
        "actor_id": OPERATOR,
        "context": {"source": "cli"},
        "reason": "checked the channel history",
    }
    if decision == "located":
        body |= {"channel_id": 5, "message_id": LOCATED_MESSAGE}
    return body


@pytest.mark.parametrize("decision", ["located", "resend"], ids=["q22-located", "q22-resend"])
async def test_q22_an_uncertain_send_blocks_retry_until_it_is_resolved(
    asgi_app: Litestar, owner: asyncpg.Connection, make_key: MakeKey, decision: str
) -> None:
    job_id = await held_job(owner, "xp:q22", uncertain=True)
    key = await make_key(scopes.JOBS_MANAGE, scopes.JOBS_READ, username="operator")
    async with client(asgi_app, key) as operator:
        public, details = await status_and_details(operator, job_id)
        assert (public["status"], details["state"], details["retry_enabled"]) == (
            "failed",
            "held",
            False,
        )
        assert {(b["effect_key"], b["destination"]): b["state"] for b in details["bindings"]}[
            UNCERTAIN
        ] == "uncertain"
        listed = (await operator.get(JOBS, params={"state": "uncertain"})).json()["jobs"]
        assert [(j["id"], j["uncertain"]) for j in listed] == [(str(job_id), True)]

        before = await snapshot(owner)
        refused = await operator.post(f"{JOBS}/{job_id}/retry", json=retry_body("q22-1", 0))
        assert (refused.status_code, refused.json()["outcome"]) == (200, "reconciliation_required")
        assert await snapshot(owner) == before

        resolved = await operator.post(
            f"{JOBS}/{job_id}/resolve-effect", json=_resolution(decision)
        )
        assert resolved.json()["outcome"] == "accepted", resolved.text
        _, details = await status_and_details(operator, job_id)
        assert (details["state"], details["retry_enabled"]) == ("held", True)
        bindings = {(b["effect_key"], b["destination"]): b for b in details["bindings"]}
        if decision == "located":
            assert (bindings[UNCERTAIN]["state"], bindings[UNCERTAIN]["message_id"]) == (
                "completed",
                LOCATED_MESSAGE,
            )
        else:
            assert UNCERTAIN not in bindings
        assert [(a["action"], a["outcome"]) for a in details["actions"]] == [
            ("resolve_effect", "accepted")
        ]
        listed = (await operator.get(JOBS, params={"state": "uncertain"})).json()["jobs"]
        assert listed == []

        accepted = await operator.post(f"{JOBS}/{job_id}/retry", json=retry_body("q22-2", 0))
        assert (accepted.json()["outcome"], accepted.json()["retry_generation"]) == ("accepted", 1)
