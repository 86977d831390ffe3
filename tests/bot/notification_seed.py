"""Notifications produced through POST /notifications/events, and their delivery records."""

from __future__ import annotations

from dataclasses import dataclass

from tests.support import seed

from .bot_stack import BotStack


@dataclass(frozen=True)
class Created:
    user_id: int
    event_id: int
    job_id: str


async def notification(stack: BotStack, event_type: str = "quest_complete") -> Created:
    """A notification for a new user; quest_complete goes to their DMs and the xp channel."""
    user_id = await seed.user(stack.owner)
    response = await stack.http.post(
        "/notifications/events",
        json={
            "user_id": user_id,
            "event_type": event_type,
            "title": "Quest complete",
            "body": "You completed a quest.",
        },
    )
    assert response.status_code == 201, response.text
    body = response.json()
    return Created(user_id=user_id, event_id=body["id"], job_id=body["job_status"]["id"])


async def delivery_log(stack: BotStack, event_id: int) -> dict[str, tuple[str, str | None]]:
    rows = await stack.owner.fetch(
        "SELECT channel, status, error_message FROM notifications.delivery_log WHERE event_id = $1",
        event_id,
    )
    return {r["channel"]: (r["status"], r["error_message"]) for r in rows}


async def bindings(stack: BotStack, job_id: str) -> dict[str, str]:
    rows = await stack.owner.fetch(
        "SELECT effect_key, state FROM effect_bindings WHERE job_id = $1", job_id
    )
    return {r["effect_key"]: r["state"] for r in rows}


async def handler_failures(stack: BotStack, job_id: str) -> int:
    failures: int = await stack.owner.fetchval(
        "SELECT handler_failures FROM jobs WHERE id = $1", job_id
    )
    return failures
