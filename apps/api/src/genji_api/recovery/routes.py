"""POST /api/v3/internal/jobs/{job_id}/retry, /discard and /resolve-effect."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from genji_sdk.recovery import DiscardRequest, RecoveryResult, ResolveEffectRequest, RetryRequest
from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.errors import BadRequestError
from genji_api.http.error_docs import FORBIDDEN
from genji_api.recovery import service
from genji_api.settings import ApiSettings

JobId = Annotated[
    str, Parameter(description="The job's public UUID", schema_extra={"format": "uuid"})
]
MANAGE = scopes.required(scopes.JOBS_MANAGE)


def _job_id(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise BadRequestError(f"Invalid job id: {raw!r}") from None


class RecoveryController(Controller):
    """Every answer but an error is 200 with the typed outcome: only `accepted` changed
    anything, and a repeated idempotency key answers `duplicate` with the recorded result."""

    path = "/internal/jobs"
    tags = ["jobs"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @post("/{job_id:str}/retry", opt=MANAGE, status_code=200, responses=FORBIDDEN)
    async def retry(
        self,
        job_id: JobId,
        data: JSONBody[RetryRequest],
        database: NamedDependency[Database],
        settings: NamedDependency[ApiSettings],
    ) -> RecoveryResult:
        """Requeue a held job as its next generation, keeping its completed effects."""
        return await service.retry_job(database, settings, _job_id(job_id), data)

    @post("/{job_id:str}/discard", opt=MANAGE, status_code=200, responses=FORBIDDEN)
    async def discard(
        self,
        job_id: JobId,
        data: JSONBody[DiscardRequest],
        database: NamedDependency[Database],
        settings: NamedDependency[ApiSettings],
    ) -> RecoveryResult:
        """End a held job for good, with a reason."""
        return await service.discard_job(database, settings, _job_id(job_id), data)

    @post("/{job_id:str}/resolve-effect", opt=MANAGE, status_code=200, responses=FORBIDDEN)
    async def resolve_effect(
        self,
        job_id: JobId,
        data: JSONBody[ResolveEffectRequest],
        database: NamedDependency[Database],
        settings: NamedDependency[ApiSettings],
    ) -> RecoveryResult:
        """Record where an uncertain send is, or that it must be sent again."""
        return await service.resolve_effect(database, settings, _job_id(job_id), data)
