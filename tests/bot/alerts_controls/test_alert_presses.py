"""A press of Retry job or Details, without Discord: only the real actor counts, the request is
built from the interaction, and an API that never answers is not reported as a refusal."""

from __future__ import annotations

import json
from uuid import UUID

import httpx
import pytest
from genji_bot.alerts.custom_ids import DetailsControl, RetryControl
from genji_bot.alerts.explain import retry_unanswered
from genji_bot.alerts.presses import (
    NOT_AN_OPERATOR,
    Press,
    press_details,
    press_retry,
    retry_request,
)
from genji_bot.alerts.recovery_client import Unanswered, request_retry
from genji_bot.api import ApiClient

JOB = UUID("3f0e8a2c-1b7d-4c55-9a51-0d2f6c8e9b10")
OPERATOR = 141372217677053952
STRANGER = 10**18 + 99
PRESS = Press(
    actor_id=OPERATOR,
    interaction_id=10**18 + 7,
    guild_id=10**18,
    channel_id=10**18 + 8,
    message_id=10**18 + 9,
)


def _client(handler: httpx.MockTransport) -> ApiClient:
    return ApiClient("http://api.invalid", "bot-key", transport=handler)


async def _never_refreshed() -> None:
    raise AssertionError("the card must not be refreshed")


async def test_only_an_allowed_actor_reaches_the_api() -> None:
    asked: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        return httpx.Response(500)

    api = _client(httpx.MockTransport(answer))
    stranger = Press(**{**PRESS.__dict__, "actor_id": STRANGER})
    control = RetryControl(JOB, 0)
    assert await press_retry(api, (OPERATOR,), control, stranger, _never_refreshed) == (
        NOT_AN_OPERATOR
    )
    assert await press_details(api, (OPERATOR,), DetailsControl(JOB), stranger) == NOT_AN_OPERATOR
    assert asked == []
    request = retry_request(RetryControl(JOB, 4), PRESS)
    assert (request.actor_id, request.expected_generation) == (OPERATOR, 4)
    assert request.idempotency_key == str(PRESS.interaction_id)
    assert request.context.message_id == PRESS.message_id
    assert request.context.interaction_id == PRESS.interaction_id


async def test_an_unanswered_retry_is_asked_again_with_the_same_key_then_not_called_refused() -> (
    None
):
    bodies: list[bytes] = []

    def drop(request: httpx.Request) -> httpx.Response:
        bodies.append(request.content)
        raise httpx.ReadTimeout("no answer", request=request)

    api = _client(httpx.MockTransport(drop))
    request = retry_request(RetryControl(JOB, 1), PRESS)
    with pytest.raises(Unanswered):
        await request_retry(api, JOB, request, pauses=(0, 0))
    assert len(bodies) == 3 and len(set(bodies)) == 1
    assert json.loads(bodies[0])["idempotency_key"] == str(PRESS.interaction_id)
    assert "may or may not have been recorded" in retry_unanswered()
