"""The bot's one way into the domain: the API, with one key, carrying each job's context.

`ApiClient` is shared by the process; `JobApi` binds it to one execution of one job, so every
mutation it makes as an effect carries the job, its claim and the effect key, and the API can
return a recorded result on replay or refuse a stale owner.

Failures become the worker's failure classes: an unreachable or overloaded API
(DependencyUnavailable; ApiAnswerLost when the request may have been handled), 429
(RateLimited), a refused key (ConfigurationFailure), a lost claim (OwnershipLost); anything
else is an `ApiError` and an ordinary handler failure.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast, overload

import httpx
import msgspec
from genji_sdk import JobContext
from genji_sdk.api_errors import ERROR_CODES, ErrorCode, code_for_status
from genji_sdk.effect_headers import effect_headers
from genji_sdk.failures import (
    ConfigurationFailure,
    DependencyUnavailable,
    OwnershipLost,
    RateLimited,
)

from genji_bot.effects.checkpoints import Checkpoints, NoCheckpoints

T = TypeVar("T")

_UNAVAILABLE = frozenset({502, 503, 504})
# A gateway's answer that the API may have handled the request (it timed out waiting for it).
_GATEWAY_TIMEOUT = 504
# Transport errors raised before the request could reach the API.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# Requests that change nothing, whose lost answer leaves nothing in doubt.
_READS = frozenset({"GET", "HEAD"})


class ApiError(Exception):
    def __init__(self, status: int, message: str, code: ErrorCode | None = None) -> None:
        super().__init__(f"API answered {status}: {message}")
        self.status = status
        self.message = message
        self.code: ErrorCode = code or code_for_status(status)


class ApiAnswerLost(DependencyUnavailable):
    """The request may have reached the API, but no answer came back (a dropped connection, a
    read timeout, a gateway timeout): what it asked for may have been done."""


class ApiNotFound(ApiError):
    """404: the entity does not exist."""


class ApiConflict(ApiError):
    """409: the domain refused the change as it stands (not a lost claim)."""


def _refusal(response: httpx.Response) -> tuple[str, ErrorCode]:
    """The error body's sentence (for people) and its code (for decisions); a body without a
    known code gets the status's generic one."""
    code = code_for_status(response.status_code)
    try:
        body = response.json()
    except ValueError:
        return response.text[:200], code
    if not isinstance(body, dict):
        return str(body)[:200], code
    given = body.get("code")
    if isinstance(given, str) and given in ERROR_CODES:
        code = cast(ErrorCode, given)
    if not isinstance(body.get("error"), str):
        return str(body)[:200], code
    error: str = body["error"]
    if body.get("extra"):
        error += f" ({str(body['extra'])[:300]})"
    return error, code


def _raise_for(response: httpx.Response) -> None:
    status = response.status_code
    if status < 400:
        return
    message, code = _refusal(response)
    if code == "claim_lost":
        raise OwnershipLost(message)
    if status in (401, 403):
        raise ConfigurationFailure(f"the API refused the bot's key ({status}: {message})")
    if status == 429:
        retry_after = float(response.headers.get("retry-after", "1") or 1)
        raise RateLimited(retry_after, "API")
    if status in _UNAVAILABLE:
        raise DependencyUnavailable("api", f"{status}", None)
    if status == 404:
        raise ApiNotFound(status, message, code)
    if status == 409:
        raise ApiConflict(status, message, code)
    raise ApiError(status, message, code)


class ApiClient:
    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url.rstrip("/") + "/api/v3",
            headers={"X-API-KEY": api_key},
            timeout=timeout,
            transport=transport,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        try:
            response = await self._http.request(
                method, path, json=json, params=params, headers=headers
            )
        except _NOT_SENT as error:
            raise DependencyUnavailable("api", type(error).__name__) from error
        except httpx.TransportError as error:
            lost = DependencyUnavailable if method.upper() in _READS else ApiAnswerLost
            raise lost("api", type(error).__name__) from error
        if response.status_code == _GATEWAY_TIMEOUT and method.upper() not in _READS:
            raise ApiAnswerLost("api", str(_GATEWAY_TIMEOUT), None)
        _raise_for(response)
        if not response.content:
            return None
        return response.json()

    async def get(self, path: str, *, params: dict[str, Any] | None = None) -> Any:
        return await self.request("GET", path, params=params)

    async def read(self, path: str, type: type[T], *, params: dict[str, Any] | None = None) -> T:
        """A read decoded as `type` (the SDK's shape of the route's answer)."""
        return msgspec.convert(await self.get(path, params=params), type)

    def for_job(self, context: JobContext, checkpoints: Checkpoints | None = None) -> JobApi:
        return JobApi(self, context, checkpoints or NoCheckpoints())


class JobApi:
    """The API as one execution of one job sees it."""

    def __init__(self, client: ApiClient, context: JobContext, checkpoints: Checkpoints) -> None:
        self.client = client
        self.context = context
        self.checkpoints = checkpoints

    async def get(self, path: str, type: type[T], *, params: dict[str, Any] | None = None) -> T:
        """A read decoded as `type` (the SDK's shape of the route's answer)."""
        return await self.client.read(path, type, params=params)

    def headers(self, effect: str) -> dict[str, str]:
        return effect_headers(self.context.job_id, self.context.claim, effect)

    @overload
    async def effect(
        self, method: str, path: str, effect: str, *, json: Any = None, type: type[T]
    ) -> T: ...

    @overload
    async def effect(
        self, method: str, path: str, effect: str, *, json: Any = None, type: None = None
    ) -> None: ...

    async def effect(
        self, method: str, path: str, effect: str, *, json: Any = None, type: type[T] | None = None
    ) -> T | None:
        """A mutation performed once per (job, effect): a replay returns the recorded result,
        decoded as `type`; without one the answer is not read."""
        await self.checkpoints.reached(self.context, effect, "before")
        body = await self.client.request(method, path, json=json, headers=self.headers(effect))
        await self.checkpoints.reached(self.context, effect, "after")
        return None if type is None else msgspec.convert(body, type)

    async def plain(self, method: str, path: str, *, json: Any = None) -> Any:
        """A request that needs no receipt (reads with side conditions, idempotent sets)."""
        return await self.client.request(method, path, json=json)
