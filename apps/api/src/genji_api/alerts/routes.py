"""GET /api/v3/internal/alerts and the card and reply bindings of each alert (jobs:manage).

The bot's alert supervisor polls the first (it reconciles held jobs into alert records, so it
is not a plain read) and records each Discord send around it: the intent before, the ids after.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from genji_sdk.alerts import (
    AlertWork,
    CardBegin,
    CardBinding,
    CardComplete,
    CardGone,
    CardRendered,
    ReplyBegin,
    ReplyBinding,
    ReplyComplete,
)
from litestar import Controller, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter
from litestar.status_codes import HTTP_200_OK

from genji_api.alerts import service
from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.errors import BadRequestError
from genji_api.settings import ApiSettings

_MANAGE = scopes.required(scopes.JOBS_MANAGE)

JobId = Annotated[
    str, Parameter(description="The job's public UUID", schema_extra={"format": "uuid"})
]
Generation = Annotated[
    int, Parameter(description="The failure episode's retry generation", ge=0, le=2**31 - 1)
]


def _job(job_id: str) -> UUID:
    try:
        return UUID(job_id)
    except ValueError:
        raise BadRequestError(f"Invalid job id: {job_id!r}") from None


class InternalAlertsController(Controller):
    path = "/internal/alerts"
    tags = ["alerts"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @get("/", opt=_MANAGE)
    async def poll(
        self, database: NamedDependency[Database], settings: NamedDependency[ApiSettings]
    ) -> AlertWork:
        """Reconcile held jobs into alerts; the alerts whose card or reply is due."""
        return await service.poll(database, settings)

    @post("/{job_id:str}/card", opt=_MANAGE, status_code=HTTP_200_OK)
    async def begin_card(
        self, job_id: JobId, data: JSONBody[CardBegin], database: NamedDependency[Database]
    ) -> CardBinding:
        """Record the intent to send the card, or why not now (`decision`)."""
        return await service.begin_card(database, _job(job_id), data)

    @post("/{job_id:str}/card/complete", opt=_MANAGE, status_code=HTTP_200_OK)
    async def complete_card(
        self, job_id: JobId, data: JSONBody[CardComplete], database: NamedDependency[Database]
    ) -> CardBinding:
        """Record the sent card's ids (another recorded id means this message is a duplicate)."""
        return await service.complete_card(database, _job(job_id), data)

    @post("/{job_id:str}/card/rendered", opt=_MANAGE, status_code=HTTP_200_OK)
    async def card_rendered(
        self, job_id: JobId, data: JSONBody[CardRendered], database: NamedDependency[Database]
    ) -> CardBinding:
        """Record the version an edit made the card show."""
        return await service.card_rendered(database, _job(job_id), data)

    @post("/{job_id:str}/card/gone", opt=_MANAGE, status_code=HTTP_200_OK)
    async def card_gone(
        self, job_id: JobId, data: JSONBody[CardGone], database: NamedDependency[Database]
    ) -> CardBinding:
        """Forget a card Discord confirmed deleted, so it is sent again."""
        return await service.card_gone(database, _job(job_id), data)

    @post("/{job_id:str}/episodes/{generation:int}/reply", opt=_MANAGE, status_code=HTTP_200_OK)
    async def begin_reply(
        self,
        job_id: JobId,
        generation: Generation,
        data: JSONBody[ReplyBegin],
        database: NamedDependency[Database],
    ) -> ReplyBinding:
        """Record the intent to send the episode's reply, or why not now (`decision`)."""
        return await service.begin_reply(database, _job(job_id), generation, data)

    @post(
        "/{job_id:str}/episodes/{generation:int}/reply/complete",
        opt=_MANAGE,
        status_code=HTTP_200_OK,
    )
    async def complete_reply(
        self,
        job_id: JobId,
        generation: Generation,
        data: JSONBody[ReplyComplete],
        database: NamedDependency[Database],
    ) -> ReplyBinding:
        """Record the reply's id: the episode is notified."""
        return await service.complete_reply(database, _job(job_id), generation, data)
