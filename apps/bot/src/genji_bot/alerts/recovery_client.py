"""The recovery API as the alert controls call it.

A retry is sent with the press's idempotency key; when the request times out, the connection
drops or a gateway answers 502/503/504, the same request is sent again: the API returns the
result it recorded for that key, so asking again can never requeue twice, and a lost answer is
resolved instead of reported as a failure.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar
from uuid import UUID

import msgspec
from genji_sdk.failures import DependencyUnavailable, RateLimited
from genji_sdk.inspection import JobDetails
from genji_sdk.recovery import RecoveryResult, RetryRequest

from genji_bot.api import ApiClient

log = logging.getLogger("genji.bot.alerts")

T = TypeVar("T")

# Pauses between asking again; the interaction's follow-up stays valid far longer.
ASK_AGAIN_AFTER = (0.5, 1.0, 2.0)
# A rate limit longer than this is waited out by the next press, not by this one.
MAX_RATE_LIMIT_WAIT = 5.0


class Unanswered(Exception):
    """The API never answered: what the request did is unknown until it is asked again."""


async def _asking_again(call: Callable[[], Awaitable[T]], pauses: Sequence[float]) -> T:
    for pause in (*pauses, None):
        try:
            return await call()
        except DependencyUnavailable as error:
            reason = f"{error.dependency} unavailable"
            wait = pause
        except RateLimited as error:
            reason = "rate limited"
            limited = min(error.retry_after, MAX_RATE_LIMIT_WAIT)
            wait = None if pause is None else max(pause, limited)
        if wait is None:
            raise Unanswered(reason)
        log.warning("recovery request not answered (%s); asking again in %.1fs", reason, wait)
        await asyncio.sleep(wait)
    raise AssertionError("unreachable")


async def request_retry(
    api: ApiClient,
    job_id: UUID,
    request: RetryRequest,
    *,
    pauses: Sequence[float] = ASK_AGAIN_AFTER,
) -> RecoveryResult:
    """POST the retry, asking again with the same idempotency key until it is answered.

    Raises Unanswered after the last pause, and the ApiClient's errors for a refusal (403, 404).
    """
    body = msgspec.to_builtins(request)

    async def ask() -> RecoveryResult:
        answer = await api.request("POST", f"/internal/jobs/{job_id}/retry", json=body)
        return msgspec.convert(answer, RecoveryResult)

    return await _asking_again(ask, pauses)


async def read_details(
    api: ApiClient, job_id: UUID, *, pauses: Sequence[float] = ASK_AGAIN_AFTER
) -> JobDetails:
    async def read() -> JobDetails:
        answer = await api.get(f"/internal/jobs/{job_id}/details")
        return msgspec.convert(answer, JobDetails)

    return await _asking_again(read, pauses)
