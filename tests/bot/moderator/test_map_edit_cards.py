"""Map edit requests in the verification queue: one card per request, mirrored onto the request
with its binding, and removed once the request is resolved."""

from __future__ import annotations

from typing import Any

import pytest
from genji_bot.views.registry import ViewRegistry
from genji_sdk.views import OpenView

from tests.bot.bot_stack import BotStack, eventually
from tests.bot.refused_writes import allow_updates, bindings, handler_failures, refuse_updates
from tests.support import seed

pytestmark = pytest.mark.queue

EDITS = "/maps/map-edits"
# Room for the retries a test sees before it lets the write through.
SLOW_RETRIES = {"GENJI_QUEUE_RETRY_DELAYS": ",".join(["0.3"] * 10)}


async def _create(stack: BotStack) -> tuple[int, str, int]:
    """A pending edit request made through the API: its id, its job, the requesting user."""
    user = await seed.user(stack.owner)
    _, code = await seed.game_map(stack.owner)
    response = await stack.http.post(
        f"{EDITS}/",
        json={
            "code": code,
            "proposed_changes": {"map_name": "Lijiang Tower", "checkpoints": 12},
            "reason": "The name is wrong",
            "created_by": user,
        },
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body["id"], body["job_status"]["id"], user


async def _message_id(stack: BotStack, edit_id: int) -> int | None:
    value: int | None = await stack.owner.fetchval(
        "SELECT message_id FROM maps.edit_requests WHERE id = $1", edit_id
    )
    return value


def _queue(stack: BotStack) -> str:
    return f"channel:{stack.settings.channels.verification_queue}"


async def test_card_is_posted_once_and_its_id_commits_with_the_binding(stack: BotStack) -> None:
    edit_id, job_id, _ = await _create(stack)
    # The message is delivered but its id cannot be recorded: the mirror's column refuses it.
    await refuse_updates(stack.owner, "maps.edit_requests", "NEW.message_id IS NOT NULL")
    async with stack.worker(**SLOW_RETRIES):
        await eventually(lambda: handler_failures(stack.owner, job_id), what="a failed attempt")
        [binding] = await bindings(stack.owner, job_id)
        assert binding["state"] == "intended"  # the binding did not complete without its mirror
        assert await _message_id(stack, edit_id) is None
        assert len(stack.recorder.sends(job_id=job_id)) == 1
        await allow_updates(stack.owner)
        await stack.until_status(job_id, "succeeded")

    [sent] = stack.recorder.sends(job_id=job_id)
    assert sent["destination"] == _queue(stack)
    [binding] = await bindings(stack.owner, job_id)
    assert (binding["state"], binding["message_id"]) == ("completed", sent["message_id"])
    assert await _message_id(stack, edit_id) == sent["message_id"]
    assert sent["message_id"] in stack.recorder.messages()


async def test_a_request_that_already_has_its_card_gets_no_other(stack: BotStack) -> None:
    edit_id, job_id, _ = await _create(stack)
    # An ordinary client recorded the card's message before the job ran.
    response = await stack.http.patch(f"{EDITS}/{edit_id}/message", json={"message_id": 4242})
    assert response.status_code == 200, response.text
    async with stack.worker():
        await stack.until_status(job_id, "succeeded")
    assert stack.recorder.sends(job_id=job_id) == []
    assert await bindings(stack.owner, job_id) == []
    assert await _message_id(stack, edit_id) == 4242


async def _resolve(stack: BotStack, edit_id: int, moderator: int) -> str:
    response = await stack.http.put(
        f"{EDITS}/{edit_id}/resolve",
        json={"accepted": False, "resolved_by": moderator, "rejection_reason": "Not needed"},
    )
    assert response.status_code == 204, response.text
    [job] = await stack.owner.fetch(
        "SELECT id FROM jobs WHERE action = 'api.map_edit.resolved' AND event_key = $1",
        f"map_edit:resolved:{edit_id}",
    )
    return str(job["id"])


async def test_resolution_deletes_the_card_once_across_a_retry(stack: BotStack) -> None:
    edit_id, created_job, _ = await _create(stack)
    moderator = await seed.user(stack.owner)
    stack.recorder.command("api.map_edit.resolved:verification-card-delete", "fail:1")
    async with stack.worker():
        await stack.until_status(created_job, "succeeded")
        message_id = await _message_id(stack, edit_id)
        assert message_id is not None
        resolved_job = await _resolve(stack, edit_id, moderator)
        await stack.until_status(resolved_job, "succeeded")

    assert await handler_failures(stack.owner, resolved_job) == 1
    deletes = stack.recorder.operations("delete")
    assert [(d["job_id"], d["message_id"]) for d in deletes] == [(resolved_job, message_id)]
    assert message_id not in stack.recorder.messages()
    # Resolution never posts another moderation message.
    assert len(stack.recorder.sends(destination=_queue(stack))) == 1
    assert stack.recorder.sends(job_id=resolved_job) == []


async def test_resolution_of_a_card_already_gone_succeeds(stack: BotStack) -> None:
    edit_id, created_job, _ = await _create(stack)
    moderator = await seed.user(stack.owner)
    async with stack.worker():
        await stack.until_status(created_job, "succeeded")
        message_id = await _message_id(stack, edit_id)
        assert message_id is not None
        # Someone removed the card by hand before the request was resolved.
        await stack.recorder.delete(stack.settings.channels.verification_queue, message_id)
        resolved_job = await _resolve(stack, edit_id, moderator)
        await stack.until_status(resolved_job, "succeeded")

    assert await handler_failures(stack.owner, resolved_job) == 0
    assert [d["job_id"] for d in stack.recorder.operations("delete")] == [None]
    assert len(stack.recorder.sends(destination=_queue(stack))) == 1


async def test_the_posted_card_gets_its_persistent_view_until_the_request_is_resolved(
    stack: BotStack,
) -> None:
    views = ViewRegistry()
    edit_id, job_id, user = await _create(stack)
    async with stack.worker(views=views):
        await stack.until_status(job_id, "succeeded")
        card = await _message_id(stack, edit_id)
        assert views.views() == [
            OpenView(kind="map_edit.verification", entity_id=edit_id, message_id=card)
        ]
        await stack.until_status(await _resolve(stack, edit_id, user), "succeeded")
    assert views.views() == []
    # A restoration that listed the card before the resolution cannot bring its view back.
    assert card is not None
    assert (
        views.register(OpenView(kind="map_edit.verification", entity_id=edit_id, message_id=card))
        == "retired"
    )
