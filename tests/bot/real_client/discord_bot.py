"""The real bot, `python -m genji_bot`, against the loopback stand-in of Discord.

`running_bot` starts it on the test's stack (the API served in process, the worker login) and
waits until its worker has registered and its gateway session is ready; at the end it stops it
with SIGTERM. Tests produce work through the API's routes and read what Discord holds through
the stand-in's control API.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import msgspec
from genji_devstack.discord_standin.control import StandInControl
from genji_sdk.recovery import DEFAULT_ALERT_RECIPIENT, OperatorContext, RetryRequest

from tests.bot.bot_stack import BotProcess, BotStack, eventually


async def until_ready(stack: BotStack, discord: StandInControl, bot: BotProcess) -> None:
    async def ready() -> bool:
        if bot.process.poll() is not None:
            raise AssertionError(f"the bot exited with {bot.process.returncode}:\n{bot.log()}")
        registered = await stack.owner.fetchval(
            "SELECT count(*) FROM queue_workers WHERE owner = 'bot' AND pid = $1", bot.pid
        )
        gateway = await discord.gateway()
        return bool(registered) and bool(gateway["connected"])

    await eventually(ready, 30, "the real bot to register its worker and connect to Discord")


@contextlib.asynccontextmanager
async def running_bot(
    stack: BotStack,
    discord: StandInControl,
    log_path: Path,
    environment: Mapping[str, str] | None = None,
) -> AsyncIterator[BotProcess]:
    bot = BotProcess.start(stack, log_path, environment, discord_url=discord.url)
    try:
        await until_ready(stack, discord, bot)
        yield bot
    finally:
        bot.stop()


async def post_newsfeed(stack: BotStack, entry: dict[str, Any]) -> tuple[int, str]:
    response = await stack.http.post("/newsfeed", json=entry)
    assert response.status_code == 201, response.text
    body = response.json()
    return body["newsfeed_id"], body["job_status"]["id"]


async def job_status(stack: BotStack, job_id: str) -> dict[str, Any]:
    response = await stack.http.get(f"/internal/jobs/{job_id}")
    response.raise_for_status()
    status: dict[str, Any] = response.json()
    return status


async def until_job(stack: BotStack, job_id: str, *states: str) -> dict[str, Any]:
    """The job's status once it is in one of `states`."""

    async def probe() -> dict[str, Any] | None:
        status = await job_status(stack, job_id)
        return status if status["status"] in states else None

    return await eventually(probe, 40, f"job {job_id} to be {'/'.join(states)}")


async def texts(discord: StandInControl, channel_id: int) -> list[str]:
    """The contents of the messages Discord holds in the channel, oldest first."""
    return [str(message["content"]) for message in await discord.messages(channel_id)]


async def operator_retry(stack: BotStack, job_id: str, generation: int) -> None:
    """The operator's retry of a held job through the API (the alert recipient operates)."""
    request = RetryRequest(
        expected_generation=generation,
        idempotency_key=f"retry-{job_id}-{generation}",
        actor_id=DEFAULT_ALERT_RECIPIENT,
        context=OperatorContext(source="cli"),
    )
    response = await stack.http.post(
        f"/internal/jobs/{job_id}/retry", content=msgspec.json.encode(request)
    )
    assert response.status_code == 200, response.text
    assert response.json()["outcome"] == "accepted", response.text
