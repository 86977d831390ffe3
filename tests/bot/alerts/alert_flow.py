"""Alert supervisors on the bot stack, and what the recorder and the alert tables say they did.

Supervisors run in this process against the served API with the bot's key and the recorder as
their Discord port and checkpoints; the recorder attributes each alert send to the alerted job
(event `job.alert`, effects `alert-card` and `alert-reply:<generation>`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import httpx
from genji_bot.alerts.supervisor import AlertSupervisor
from genji_bot.api import ApiClient

from tests.bot.bot_stack import BotStack, eventually

POLL = 0.1


def alerts_destination(stack: BotStack) -> str:
    return f"channel:{stack.settings.channels.job_alerts}"


def supervisor(
    stack: BotStack, transport: httpx.AsyncBaseTransport | None = None, **settings: Any
) -> AlertSupervisor:
    configured = dataclasses.replace(stack.settings, **{"alert_poll_seconds": POLL, **settings})
    api = ApiClient(stack.url, stack.bot_key, timeout=10, transport=transport)
    return AlertSupervisor(api, stack.recorder, configured, stack.recorder)


@contextlib.asynccontextmanager
async def running(*supervisors: AlertSupervisor) -> AsyncIterator[None]:
    tasks = [asyncio.create_task(item.run()) for item in supervisors]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for item in supervisors:
            await item.api.aclose()


def card_sends(stack: BotStack, job_id: UUID) -> list[dict[str, Any]]:
    return stack.recorder.sends(job_id=str(job_id), effect="alert-card")


def reply_sends(
    stack: BotStack, job_id: UUID, generation: int | None = None
) -> list[dict[str, Any]]:
    return [
        entry
        for entry in stack.recorder.sends(job_id=str(job_id))
        if entry["effect"].startswith("alert-reply:")
        and (generation is None or entry["effect"] == f"alert-reply:{generation}")
    ]


def card_edits(stack: BotStack, message_id: int) -> list[dict[str, Any]]:
    return [e for e in stack.recorder.operations("edit") if e["message_id"] == message_id]


async def alert(stack: BotStack, job_id: UUID) -> Any:
    return await stack.owner.fetchrow("SELECT * FROM job_alerts WHERE job_id = $1", job_id)


async def episodes(stack: BotStack, job_id: UUID) -> list[Any]:
    return list(
        await stack.owner.fetch(
            "SELECT * FROM job_alert_episodes WHERE job_id = $1 ORDER BY retry_generation", job_id
        )
    )


async def until_notified(
    stack: BotStack, job_id: UUID, generation: int = 0, deadline: float = 20
) -> Any:
    async def probe() -> Any:
        return await stack.owner.fetchrow(
            "SELECT * FROM job_alert_episodes WHERE job_id = $1 AND retry_generation = $2 "
            "AND state = 'notified'",
            job_id,
            generation,
        )

    return await eventually(probe, deadline, f"job {job_id} generation {generation} notified")


async def until_rendered(
    stack: BotStack, job_id: UUID, after: int = 0, deadline: float = 20
) -> Any:
    """Until the card exists and shows the alert's desired version, once that is past `after`."""

    async def probe() -> Any:
        return await stack.owner.fetchrow(
            "SELECT * FROM job_alerts WHERE job_id = $1 AND message_id IS NOT NULL "
            "AND rendered_version = desired_version AND desired_version > $2",
            job_id,
            after,
        )

    return await eventually(probe, deadline, f"the card of job {job_id} to be current")


def refusals(stack: BotStack) -> list[dict[str, Any]]:
    """Every request the recorder refused at the alerts channel, in order."""
    destination = alerts_destination(stack)
    return [e for e in stack.recorder.operations("refused") if e["destination"] == destination]


def mentioned(entry: dict[str, Any]) -> dict[str, list[int]]:
    mentions = entry["message"]["mentions"]
    return {"users": list(mentions["users"]), "roles": list(mentions["roles"])}
