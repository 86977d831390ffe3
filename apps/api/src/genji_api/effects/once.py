"""Perform a mutation at most once per (job, effect), inside the caller's transaction."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg
import msgspec
from genji_queue.effect_actions import effect_action_check
from genji_queue.errors import (
    EffectFingerprintMismatchError,
    EffectNotAllowedError,
    JobNotFoundError,
    StaleClaimError,
)
from genji_queue.receipts import effect_receipt_begin, effect_receipt_complete

from genji_api.effects.context import EffectContext
from genji_api.effects.rules import EffectRule
from genji_api.errors import (
    JOB_NOT_FOUND,
    BadRequestError,
    ClaimLostError,
    EffectMismatchError,
    NotFoundError,
)

R = TypeVar("R", bound=msgspec.Struct)


def fingerprint(request: msgspec.Struct) -> str:
    return hashlib.sha256(msgspec.json.encode(request)).hexdigest()


async def check_action(conn: asyncpg.Connection, effect: EffectContext, rule: EffectRule) -> str:
    """The job's event name, once it is known to be allowed to request this effect."""
    try:
        return await effect_action_check(
            conn, effect.job_id, effect.effect_key, rule.allowed_events(effect.effect_key)
        )
    except JobNotFoundError:
        raise NotFoundError(JOB_NOT_FOUND) from None
    except EffectNotAllowedError:
        raise BadRequestError(
            f"Effect {effect.effect_key!r} may not be requested by job {effect.job_id}."
        ) from None


async def once(
    conn: asyncpg.Connection,
    effect: EffectContext | None,
    request: msgspec.Struct,
    result_type: type[R],
    perform: Callable[[], Awaitable[R]],
    *,
    rule: EffectRule,
) -> R:
    """Run `perform` unless this job's effect already ran; then return its recorded result.

    Without an effect context (an ordinary client) `perform` simply runs. With one, the job's
    event must be allowed to request the effect (`rule`); the receipt, the mutation and its
    result commit together; a concurrent duplicate waits and then reads the result, and a
    handler whose claim is no longer active can read a recorded result but cannot start the
    effect.
    """
    if effect is None:
        return await perform()
    await check_action(conn, effect, rule)
    try:
        receipt = await effect_receipt_begin(
            conn, effect.claim, effect.job_id, effect.effect_key, fingerprint(request)
        )
    except StaleClaimError:
        raise ClaimLostError() from None
    except EffectFingerprintMismatchError:
        raise EffectMismatchError(
            f"Effect {effect.effect_key!r} of job {effect.job_id} "
            "was recorded with another request."
        ) from None
    except JobNotFoundError:
        raise NotFoundError(JOB_NOT_FOUND) from None
    if not receipt.fresh:
        recorded: Any = receipt.result
        return msgspec.convert(recorded, result_type)
    result = await perform()
    await effect_receipt_complete(
        conn, effect.job_id, effect.effect_key, msgspec.to_builtins(result)
    )
    return result
