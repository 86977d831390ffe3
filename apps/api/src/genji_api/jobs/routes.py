"""GET /api/v3/internal/jobs/{job_id}, and the operator's GET /api/v3/internal/jobs and
GET /api/v3/internal/jobs/{job_id}/details."""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from genji_sdk.inspection import JobDetails, JobList
from genji_sdk.jobs import JobStatusResponse
from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import Parameter, QueryParameter

from genji_api.auth import scopes
from genji_api.database import Database
from genji_api.errors import BadRequestError
from genji_api.jobs import service

JobId = Annotated[
    str, Parameter(description="The job's public UUID", schema_extra={"format": "uuid"})
]
# `state` is a reserved name of Litestar handlers; the query parameter keeps it.
ListState = Annotated[
    Literal["pending", "retrying", "running", "held", "uncertain"] | None,
    QueryParameter(
        name="state",
        description="Only jobs in this state (uncertain: held with an unresolved send)",
    ),
]
Entrypoint = Annotated[
    str | None, QueryParameter(description="Only jobs of this event name", max_length=200)
]
Limit = Annotated[int, QueryParameter(description="At most this many jobs", ge=1, le=500)]


def _job_id(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise BadRequestError(f"Invalid job id: {raw!r}") from None


class InternalJobsController(Controller):
    path = "/internal"
    tags = ["jobs"]  # noqa: RUF012  (Litestar reads it as an attribute)

    @get("/jobs/{job_id:str}", opt=scopes.required(scopes.JOBS_READ))
    async def get_job(
        self, job_id: JobId, database: NamedDependency[Database]
    ) -> JobStatusResponse:
        """The status of a job by its public UUID."""
        return await service.job_status(database, _job_id(job_id))

    @get("/jobs", opt=scopes.required(scopes.JOBS_MANAGE))
    async def list_jobs(
        self,
        database: NamedDependency[Database],
        job_state: ListState = None,
        entrypoint: Entrypoint = None,
        limit: Limit = 50,
    ) -> JobList:
        """Active jobs, newest first, for the operator."""
        return await service.list_jobs(database, job_state, entrypoint, limit)

    @get("/jobs/{job_id:str}/details", opt=scopes.required(scopes.JOBS_MANAGE))
    async def job_details(self, job_id: JobId, database: NamedDependency[Database]) -> JobDetails:
        """One job's state, budgets, last error, effect progress and recovery history."""
        return await service.job_details(database, _job_id(job_id))
