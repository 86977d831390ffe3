"""`@queue_consumer(PayloadType)`: how a feature module declares the handler of one bot
entrypoint, the event whose payload is `PayloadType` in the registry.

A consumer is `async def handle(payload: <the event's payload type>, job: JobRun) -> None`.
`JobRun` is what one execution of one job may use: its context, the API bound to it, the Discord
port, the settings, the checkpoints around effects, and the process's persistent views
(`job.views.register(OpenView(...))` after posting a message with live buttons,
`job.views.retire(message_id)` once its record is resolved). `bot_handlers` turns the registered
consumers into the worker's handlers and refuses to start unless every bot entrypoint has
exactly one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec
from genji_sdk import REGISTRY, DuplicateRegistrationError, EventRegistry, JobContext
from genji_sdk.sends import Mirror
from genji_worker.executor import Handler

from genji_bot.api import ApiClient, JobApi
from genji_bot.effects.checkpoints import Checkpoints, NoCheckpoints, Stage
from genji_bot.effects.port import DiscordPort, Outgoing, Sent, Target
from genji_bot.effects.sends import send_once, skip_send
from genji_bot.settings import BotSettings
from genji_bot.views.registry import ViewRegistry

P = TypeVar("P", bound=msgspec.Struct)


@dataclass(frozen=True)
class BotServices:
    """What the process shares between executions."""

    api: ApiClient
    port: DiscordPort
    settings: BotSettings
    checkpoints: Checkpoints = field(default_factory=NoCheckpoints)
    views: ViewRegistry = field(default_factory=ViewRegistry)


@dataclass(frozen=True)
class JobRun:
    context: JobContext
    api: JobApi
    port: DiscordPort
    settings: BotSettings
    checkpoints: Checkpoints
    views: ViewRegistry = field(default_factory=ViewRegistry)

    async def send(
        self, effect: str, target: Target, message: Outgoing, *, mirror: Mirror | None = None
    ) -> Sent | None:
        """A replay-safe send (genji_bot.effects.sends.send_once)."""
        return await send_once(
            self.api, self.port, self.checkpoints, effect, target, message, mirror=mirror
        )

    async def skip(self, effect: str, target: Target, reason: str) -> None:
        await skip_send(self.api, effect, target, reason)

    async def step(self, effect: str, stage: Stage = "before") -> None:
        """Mark a boundary of an effect that is neither an API mutation nor a send (an edit,
        a delete, a role change), so observers see every effect of the workflow."""
        await self.checkpoints.reached(self.context, effect, stage)


Consumer = Callable[[Any, JobRun], Awaitable[None]]
CONSUMERS: dict[str, Consumer] = {}


def queue_consumer(
    payload_type: type[P],
) -> Callable[[Callable[[P, JobRun], Awaitable[None]]], Callable[[P, JobRun], Awaitable[None]]]:
    """Register the consumer of the event whose payload is `payload_type` (the registry names
    the event, so a consumer cannot name one it does not know)."""
    spec = REGISTRY.for_payload(payload_type)
    if spec.owner != "bot":
        raise ValueError(f"{spec.name} is owned by the {spec.owner} worker, not the bot")

    def register(
        function: Callable[[P, JobRun], Awaitable[None]],
    ) -> Callable[[P, JobRun], Awaitable[None]]:
        if spec.name in CONSUMERS:
            raise DuplicateRegistrationError(f"{spec.name} has two consumers")
        CONSUMERS[spec.name] = function
        return function

    return register


def bot_handlers(
    services: BotServices,
    consumers: dict[str, Consumer] | None = None,
    registry: EventRegistry = REGISTRY,
) -> dict[str, Handler]:
    """One worker handler per bot entrypoint, from the loaded feature modules."""
    if consumers is None:
        from genji_bot.features import load_features

        load_features()
        consumers = CONSUMERS
    registry.verify_handlers("bot", consumers)

    def handler(consumer: Consumer) -> Handler:
        async def handle(payload: msgspec.Struct, context: JobContext) -> None:
            run = JobRun(
                context=context,
                api=services.api.for_job(context, services.checkpoints),
                port=services.port,
                settings=services.settings,
                checkpoints=services.checkpoints,
                views=services.views,
            )
            await consumer(payload, run)

        return handle

    return {name: handler(consumer) for name, consumer in consumers.items()}
