"""POST /api/v3/internal/effects/sends[/complete|/settle|/release]: the bot's Discord sends.

Each takes the job context headers (the effect key names the send) and a destination, and runs
in its own short transaction: the intent is committed before the bot sends, the ids after.
"""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, post
from litestar.di import NamedDependency
from litestar.params import JSONBody
from litestar.status_codes import HTTP_200_OK

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.effects import bindings
from genji_api.effects.context import effect_context
from genji_api.effects.models import (
    SendBegin,
    SendComplete,
    SendRelease,
    SendReleased,
    SendSettle,
    SendState,
)

_WRITE = scopes.required(scopes.EFFECTS_WRITE)


class EffectSendsController(Controller):
    path = "/internal/effects/sends"
    tags = ["effects"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/", opt=_WRITE, status_code=HTTP_200_OK)
    async def begin(
        self,
        data: JSONBody[SendBegin],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> SendState:
        """Record the intent to send, or return the send's recorded state (`fresh` = send now)."""
        return await bindings.begin_send(database, data, effect_context(request))

    @post("/complete", opt=_WRITE, status_code=HTTP_200_OK)
    async def complete(
        self,
        data: JSONBody[SendComplete],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> SendState:
        """Record the ids a send returned (and the domain column that mirrors them)."""
        return await bindings.complete_send(database, data, effect_context(request))

    @post("/settle", opt=_WRITE, status_code=HTTP_200_OK)
    async def settle(
        self,
        data: JSONBody[SendSettle],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> SendState:
        """Record a destination as skipped, permanently failed, or uncertain."""
        return await bindings.settle_send(database, data, effect_context(request))

    @post("/release", opt=_WRITE, status_code=HTTP_200_OK)
    async def release(
        self,
        data: JSONBody[SendRelease],
        request: Request[Any, Any, Any],
        database: NamedDependency[Database],
    ) -> SendReleased:
        """Forget an intent whose send surely did not happen, so a retry sends it."""
        return await bindings.release_send(database, data.destination, effect_context(request))
