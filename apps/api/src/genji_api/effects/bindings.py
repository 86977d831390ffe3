"""The bot's Discord sends, recorded per (job, effect, destination) in short transactions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import asyncpg
from genji_queue.bindings import (
    Binding,
    effect_binding_begin,
    effect_binding_complete,
    effect_binding_release,
    effect_binding_settle,
)
from genji_queue.errors import EffectFingerprintMismatchError, JobNotFoundError, StaleClaimError
from genji_sdk import REGISTRY

from genji_api.database import Database
from genji_api.effects import mirror_registry  # noqa: F401  (registers the mirrors)
from genji_api.effects.context import EffectContext
from genji_api.effects.mirrors import MIRRORS, SentIds
from genji_api.effects.models import SendBegin, SendComplete, SendReleased, SendSettle, SendState
from genji_api.effects.once import check_action
from genji_api.effects.rules import EffectRule
from genji_api.errors import BadRequestError, ClaimLostError, EffectMismatchError, NotFoundError

T = TypeVar("T")

# Every bot handler sends; what it sends is its own business.
BOT_EVENTS = frozenset(spec.name for spec in REGISTRY.owned_by("bot"))


class _AnySend(EffectRule):
    def allowed_events(self, effect_key: str) -> frozenset[str]:
        return BOT_EVENTS


SEND_RULE = _AnySend({})


# Kept for the database's own checks, not part of the answer.
_INTERNAL = frozenset({"fingerprint", "intended_by"})


def _state(binding: Binding, fresh: bool = False) -> SendState:
    return SendState(
        state=binding.state,
        fresh=fresh,
        channel_id=binding.channel_id,
        message_id=binding.message_id,
        thread_id=binding.thread_id,
        fingerprint=binding.fingerprint,
        created_at=binding.created_at,
        detail={k: v for k, v in binding.detail.items() if k not in _INTERNAL},
    )


def _require(effect: EffectContext | None) -> EffectContext:
    if effect is None:
        raise BadRequestError("Send bindings need the job context headers.")
    return effect


async def _run(
    database: Database,
    effect: EffectContext | None,
    work: Callable[[asyncpg.Connection, EffectContext, str], Awaitable[T]],
) -> T:
    """Run `work(conn, context, event name)` in one transaction, once the job may send."""
    context = _require(effect)

    async def transaction(conn: asyncpg.Connection) -> T:
        event = await check_action(conn, context, SEND_RULE)
        try:
            return await work(conn, context, event)
        except StaleClaimError:
            raise ClaimLostError() from None
        except EffectFingerprintMismatchError as error:
            raise EffectMismatchError(str(error).split("\n")[0]) from None
        except JobNotFoundError:
            raise NotFoundError(
                f"Effect {context.effect_key!r} of job {context.job_id} has no such binding."
            ) from None

    return await database.transaction(transaction)


async def begin_send(
    database: Database, body: SendBegin, effect: EffectContext | None
) -> SendState:
    async def work(conn: asyncpg.Connection, context: EffectContext, event: str) -> SendState:
        fresh, binding = await effect_binding_begin(
            conn,
            context.claim,
            context.job_id,
            context.effect_key,
            body.destination,
            body.fingerprint,
        )
        return _state(binding, fresh)

    return await _run(database, effect, work)


async def complete_send(
    database: Database, body: SendComplete, effect: EffectContext | None
) -> SendState:
    async def work(conn: asyncpg.Connection, context: EffectContext, event: str) -> SendState:
        binding = await effect_binding_complete(
            conn,
            context.job_id,
            context.effect_key,
            body.destination,
            channel_id=body.channel_id,
            message_id=body.message_id,
            thread_id=body.thread_id,
        )
        if body.mirror is not None:
            spec = MIRRORS.get(body.mirror.kind)
            if spec is None or event not in spec.events:
                raise BadRequestError(
                    f"A {event} job cannot record a {body.mirror.kind!r} message."
                )
            await spec.write(
                conn,
                body.mirror.entity_id,
                SentIds(binding.channel_id, binding.message_id, binding.thread_id),
            )
        return _state(binding)

    return await _run(database, effect, work)


async def settle_send(
    database: Database, body: SendSettle, effect: EffectContext | None
) -> SendState:
    async def work(conn: asyncpg.Connection, context: EffectContext, event: str) -> SendState:
        binding = await effect_binding_settle(
            conn,
            context.claim,
            context.job_id,
            context.effect_key,
            body.destination,
            body.state,
            {"reason": body.reason} if body.reason else None,
        )
        return _state(binding)

    return await _run(database, effect, work)


async def release_send(
    database: Database, destination: str, effect: EffectContext | None
) -> SendReleased:
    async def work(conn: asyncpg.Connection, context: EffectContext, event: str) -> SendReleased:
        released = await effect_binding_release(
            conn, context.claim, context.job_id, context.effect_key, destination
        )
        return SendReleased(released=released)

    return await _run(database, effect, work)
